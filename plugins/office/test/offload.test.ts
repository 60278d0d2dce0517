// Invariant: the office plugin's heavy work (making pptx and docx files, hashing a content for the
// render cache, decoding and stacking page images, reading slide geometry for lint) is done by the
// office worker threads, not on the host's thread, and gives what the same work gives on the calling
// thread: the same file parts, the same contact sheet byte for byte, the same boxes. The pool answers
// tasks in order one per worker, fails a task with its own error and goes on, drops a task aborted
// while it waits, and with 0 threads (COWORK_OFFICE_WORKERS=0) runs tasks on the calling thread.
import { type Json, type ToolContext } from '@cowork/host';
import { openTempHost, type TempHost } from '@cowork/host/testkit';
import JSZip from 'jszip';
import { PNG } from 'pngjs';
import { plugin, type Presentation } from '../src';
import { renderDocx } from '../src/document/export-docx';
import { readPptxBoxes } from '../src/lint/pptx-boxes';
import { OfficeWorkers, officeWorkers, workerCount } from '../src/offload/pool';
import { renderPptx } from '../src/presentation/export-pptx';
import { contactSheet } from '../src/preview/contact-sheet';
import { renderKey } from '../src/preview/render-key';
import { renderOffice } from '../src/preview/render';
import { deck, richDeck, slide } from './deck';
import { sampleDocument, RED_PIXEL_PNG } from './document-fixtures';

/** richDeck without its charts: pptxgenjs numbers charts by a counter global to its thread, so only chart-free files compare part for part. */
function chartlessDeck(): Presentation {
  const content = richDeck();
  return { ...content, slides: content.slides.map((s) => ({ ...s, elements: (s.elements ?? []).filter((e) => e.type !== 'chart') })) };
}

/** Every part of a zip but docProps/core.xml, which carries the time it was written. */
async function parts(data: Uint8Array): Promise<Record<string, string>> {
  const zip = await JSZip.loadAsync(data);
  const out: Record<string, string> = {};
  for (const entry of Object.values(zip.files)) if (!entry.dir && entry.name !== 'docProps/core.xml') out[entry.name] = await entry.async('base64');
  return out;
}

describe('office work off the host thread', () => {
  let host: TempHost;

  beforeAll(async () => {
    host = await openTempHost({ plugins: [plugin], prefix: 'cowork-office-offload-' });
  });

  afterAll(async () => {
    await host.dispose();
    await officeWorkers.close();
  });

  it('exports pptx and docx from the worker threads, with the parts the in-thread renderers write', async () => {
    expect(officeWorkers.threads).toBeGreaterThan(0);
    const before = officeWorkers.stats();
    const content = chartlessDeck();
    const r = await host.resources.create({ kind: 'office.presentation', content: content as unknown as Json, operator: 'human:ann' });
    const pptx = await host.exports.export(r.id, 'pptx');
    const document = { ...sampleDocument(), blocks: [...sampleDocument().blocks, { id: 'pic', type: 'image' as const, image: { src: RED_PIXEL_PNG, alt: 'A red dot' } }] };
    const d = await host.resources.create({ kind: 'office.document', content: document as unknown as Json, operator: 'human:ann' });
    const docx = await host.exports.export(d.id, 'docx');
    const after = officeWorkers.stats();
    expect(after.inWorkers - before.inWorkers).toBe(2);
    expect(after.inline).toBe(before.inline);
    expect(await parts(pptx.data)).toEqual(await parts(await renderPptx(content)));
    expect(await parts(docx.data)).toEqual(await parts(await renderDocx(document)));
  });

  it('renders pages whose contact sheet and blank flags equal the in-thread decoding, byte for byte', async () => {
    const content = deck();
    content.slides.push(slide('empty', '', { layout: 'blank' }));
    const before = officeWorkers.stats().inWorkers;
    const render = await renderOffice({ data: await renderPptx(content), extension: 'pptx' }, new AbortController().signal);
    expect(officeWorkers.stats().inWorkers - before).toBe(1); // the pages and the sheet, in one task
    const decoded = render.pages.map((page) => PNG.sync.read(Buffer.from(page.png)));
    expect(Buffer.from(render.sheet!).equals(Buffer.from(contactSheet(decoded)))).toBe(true);
    expect(render.pages.map((page) => page.blank)).toEqual([false, false, false, true]);
    expect(render.pages.map((page) => [page.width, page.height])).toEqual(decoded.map((image) => [image.width, image.height]));
  });

  it('hashes render keys and reads lint boxes in the workers, as the calling thread would', async () => {
    const content = richDeck();
    const r = await host.resources.create({ kind: 'office.presentation', content: content as unknown as Json, operator: 'human:ann' });
    const before = officeWorkers.stats().inWorkers;
    const context: ToolContext = { operator: 'agent:a1', signal: new AbortController().signal, host: { workspaceDir: host.workspaceDir, resources: host.resources } };
    const result = await plugin.tools.find((t) => t.name === 'office_lint')!.handler({ resourceId: r.id }, context);
    expect(result.isError).toBeFalsy();
    // The key, the pptx, the pages and the boxes: four tasks, none on this thread.
    expect(officeWorkers.stats().inWorkers - before).toBe(4);
    const pptx = await renderPptx(content);
    expect(await officeWorkers.run({ type: 'pptx_boxes', data: pptx })).toEqual(await readPptxBoxes(pptx));
    expect(await officeWorkers.run({ type: 'render_key', extension: 'pptx', content })).toBe(renderKey('pptx', content));
  });
});

describe('office worker pool', () => {
  const pools: OfficeWorkers[] = [];
  const pool = (threads: number): OfficeWorkers => {
    const made = new OfficeWorkers(threads);
    pools.push(made);
    return made;
  };

  afterAll(() => Promise.all(pools.map((p) => p.close())));

  it('answers tasks sent together, one at a time on one worker, each with its own result', async () => {
    const workers = pool(1);
    const contents = ['A', 'B', 'C'].map((title) => ({ title, slides: [] }));
    const keys = await Promise.all(contents.map((content) => workers.run({ type: 'render_key', extension: 'pptx', content })));
    expect(keys).toEqual(contents.map((content) => renderKey('pptx', content)));
    expect(workers.stats()).toEqual({ threads: 1, inWorkers: 3, inline: 0 });
  });

  it('fails a task with its own error and keeps working', async () => {
    const workers = pool(1);
    await expect(workers.run({ type: 'pptx_boxes', data: new Uint8Array([1, 2, 3]) })).rejects.toThrow(/zip/i);
    expect(await workers.run({ type: 'render_key', extension: 'docx', content: 1 })).toBe(renderKey('docx', 1));
  });

  it('drops a task aborted while it waits for a worker, and runs again after being closed', async () => {
    const workers = pool(1);
    const first = workers.run({ type: 'pptx', deck: chartlessDeck() });
    const leaving = new AbortController();
    const second = workers.run({ type: 'pptx', deck: deck() }, leaving.signal);
    leaving.abort(new Error('the person left'));
    await expect(second).rejects.toThrow('the person left');
    expect((await first).byteLength).toBeGreaterThan(0);
    expect(workers.stats().inWorkers).toBe(1);
    await workers.close();
    expect(await workers.run({ type: 'render_key', extension: 'pptx', content: 2 })).toBe(renderKey('pptx', 2));
  });

  it('runs tasks on the calling thread with 0 threads', async () => {
    const workers = pool(0);
    expect(await workers.run({ type: 'render_key', extension: 'pptx', content: 3 })).toBe(renderKey('pptx', 3));
    expect(workers.stats()).toEqual({ threads: 0, inWorkers: 0, inline: 1 });
  });

  it('takes its size from COWORK_OFFICE_WORKERS, else at least one thread', () => {
    expect(workerCount('0')).toBe(0);
    expect(workerCount(' 3 ')).toBe(3);
    expect(workerCount('many')).toBeGreaterThanOrEqual(1);
    expect(workerCount(undefined)).toBeGreaterThanOrEqual(1);
  });
});
