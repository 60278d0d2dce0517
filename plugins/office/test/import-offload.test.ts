// Invariant: a .docx or .pptx imported through the host is read (zip and XML) in the office worker
// threads, not on the host's thread, and comes out as it does on the calling thread: the same
// content for a good file (a large one arrives in pieces and is put back together whole), and for
// a bad one (a damaged part, a zip bomb, bytes that are no zip, parts over the content limit) the
// same error: code, message, details and HTTP status. An abort fails an import at once, whether it
// waits for a worker or is under way, and the worker goes on to the next task.
import JSZip from 'jszip';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { CoworkError, isCoworkError } from '@cowork/host';
import { openTempHost, type TempHost, forgeZip, zeroBomb, type ForgedEntry } from '@cowork/host/testkit';
import { importDocx, importPptx, plugin, type DocumentContent } from '../src';
import { renderDocx } from '../src/document/export-docx';
import { fromPieces, toPieces } from '../src/offload/pieces';
import { OfficeWorkers, officeWorkers } from '../src/offload/pool';
import { renderPptx } from '../src/presentation/export-pptx';
import { pngDataUri, richDeck } from './deck';
import { longDocument, RED_PIXEL_PNG, sampleDocument } from './document-fixtures';

const MiB = 1024 * 1024;
const LIMIT = 8 * MiB;

/** A long document with pictures: its content is several pieces of JSON. */
function largeDocument(): DocumentContent {
  const content = longDocument(600);
  const pictures = [1, 2, 3].map((n) => ({ id: `pic-${n}`, type: 'image' as const, image: { src: pngDataUri(300 + n, 200), alt: `Figure ${n}` } }));
  return { ...content, blocks: [...content.blocks, ...pictures, { id: 'dot', type: 'image', image: { src: RED_PIXEL_PNG, alt: 'A red dot' } }] };
}

async function entriesOf(data: Uint8Array): Promise<ForgedEntry[]> {
  const zip = await JSZip.loadAsync(data);
  const names = Object.keys(zip.files).filter((name) => !zip.files[name]!.dir);
  return Promise.all(names.map(async (name) => ({ name, data: await zip.file(name)!.async('uint8array') })));
}

function changed(entries: ForgedEntry[], name: string, change: (text: string) => Partial<ForgedEntry>): ForgedEntry[] {
  if (!entries.some((entry) => entry.name === name)) throw new Error(`no ${name}`);
  return entries.map((entry) => (entry.name === name ? { ...entry, ...change(Buffer.from(entry.data as Uint8Array).toString('utf8')) } : entry));
}

/** What a refusal says: everything the host answers with. */
function refusalOf(error: unknown): { code: string; status: number; message: string; details: unknown } {
  if (!isCoworkError(error)) throw error;
  return { code: error.code, status: error.status, message: error.message, details: error.details };
}

describe('office imports in the worker threads', () => {
  let host: TempHost;
  let docx: Uint8Array;
  let pptx: Uint8Array;

  beforeAll(async () => {
    host = await openTempHost({ plugins: [plugin], prefix: 'cowork-office-import-offload-' });
    docx = await renderDocx(largeDocument());
    pptx = await renderPptx(richDeck());
  });

  afterAll(async () => {
    await host.dispose();
    await officeWorkers.close();
  });

  it('reads docx and pptx files in the workers, into the contents the in-thread importers make', async () => {
    expect(officeWorkers.threads).toBeGreaterThan(0);
    const before = officeWorkers.stats();
    const document = await host.imports.importFile({ kind: 'office.document', data: docx, fileName: 'report.docx', operator: 'human:ann' });
    const deck = await host.imports.importFile({ kind: 'office.presentation', data: pptx, fileName: 'launch.pptx', operator: 'human:ann' });
    const after = officeWorkers.stats();
    expect(after.inWorkers - before.inWorkers).toBe(2);
    expect(after.inline).toBe(before.inline);

    const inThread = await importDocx(docx, { fileName: 'report.docx', maxContentBytes: LIMIT });
    expect(document.content).toEqual(inThread);
    expect(inThread.blocks.filter((block) => block.type === 'image')).toHaveLength(4);
    // Several pieces, so the test covers putting a content back together.
    expect(toPieces(inThread, 'blocks').pieces.length).toBeGreaterThan(1);
    expect(deck.content).toEqual(await importPptx(pptx, { fileName: 'launch.pptx', maxContentBytes: LIMIT, signal: new AbortController().signal }));
  });

  it('puts pieces back together as the value they were cut from', async () => {
    const value = { title: 'T', blocks: Array.from({ length: 5000 }, (_, i) => ({ id: `b${i}`, text: 'x'.repeat(i % 300), n: i })), page: { size: 'A4' } };
    const { pieces } = toPieces(value, 'blocks');
    expect(pieces.length).toBeGreaterThan(1);
    expect(await fromPieces(toPieces(value, 'blocks'))).toEqual(value);
    expect(await fromPieces(toPieces({ title: 'none', blocks: [] }, 'blocks'))).toEqual({ title: 'none', blocks: [] });
  });

  describe('refuses a bad file from a worker as the in-thread importer does', () => {
    let doc: ForgedEntry[];
    let slides: ForgedEntry[];

    beforeAll(async () => {
      doc = await entriesOf(await renderDocx({ ...sampleDocument(), blocks: [...sampleDocument().blocks, { id: 'pic', type: 'image', image: { src: RED_PIXEL_PNG, alt: 'A red dot' } }] }));
      slides = await entriesOf(pptx);
    });

    it.each<[string, 'docx' | 'pptx', () => Uint8Array, string]>([
      ['a damaged docx (document.xml is not XML)', 'docx', () => forgeZip(changed(doc, 'word/document.xml', (xml) => ({ data: xml.slice(0, xml.length / 2) }))), 'invalid_file'],
      ['a docx zip bomb (64 MiB claiming 100 bytes)', 'docx', () => forgeZip(changed(doc, 'word/document.xml', () => ({ compressed: zeroBomb(64), size: 100 }))), 'invalid_file'],
      ['a docx part over the content limit', 'docx', () => forgeZip(changed(doc, 'word/document.xml', () => ({ compressed: zeroBomb(1), size: 1024 * MiB }))), 'content_too_large'],
      ['a docx that is no zip', 'docx', () => new TextEncoder().encode('this is a plain text file, not a Word document'), 'invalid_file'],
      ['a pptx zip bomb (a picture)', 'pptx', () => forgeZip(changed(slides, slides.find((e) => e.name.startsWith('ppt/media/'))!.name, () => ({ compressed: zeroBomb(64), size: 100 }))), 'invalid_file'],
      ['a pptx that is no zip', 'pptx', () => Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251), 'invalid_file'],
    ])('%s', async (_name, format, bytes, code) => {
      const data = bytes();
      const fileName = `bad.${format}`;
      const context = { fileName, maxContentBytes: LIMIT, signal: new AbortController().signal };
      const failure = (promise: Promise<unknown>): Promise<unknown> => promise.then(() => undefined, (error: unknown) => error);
      const inThread = refusalOf(await failure(format === 'docx' ? importDocx(data, context) : importPptx(data, context)));
      expect(inThread).toMatchObject({ code, status: code === 'invalid_file' ? 422 : 413 });

      const before = officeWorkers.stats().inWorkers;
      const fromWorker = await failure(officeWorkers.run({ type: `import_${format}`, data, fileName, maxContentBytes: LIMIT }));
      expect(officeWorkers.stats().inWorkers - before).toBe(1);
      expect(fromWorker).toBeInstanceOf(CoworkError);
      expect(refusalOf(fromWorker)).toEqual(inThread);

      // Through the host, which adds which plugin and action failed.
      const kind = format === 'docx' ? 'office.document' : 'office.presentation';
      const viaHost = await failure(host.imports.importFile({ kind, data, fileName, operator: 'human:ann' }));
      expect(officeWorkers.stats().inWorkers - before).toBe(2);
      expect(refusalOf(viaHost)).toEqual({ ...inThread, details: { ...(inThread.details as object), plugin: 'office', action: `import ${format}` } });
    });
  });

  it('fails an aborted import at once, waiting or under way, and the worker goes on', async () => {
    const workers = new OfficeWorkers(1);
    try {
      const running = new AbortController();
      const waiting = new AbortController();
      const first = workers.run({ type: 'import_docx', data: docx, fileName: 'a.docx', maxContentBytes: LIMIT }, running.signal);
      const second = workers.run({ type: 'import_docx', data: docx, fileName: 'b.docx', maxContentBytes: LIMIT }, waiting.signal);
      await nextTurn(); // both copies made: the first is under way, the second waits
      waiting.abort(new Error('the second person left'));
      running.abort(new Error('the first person left'));
      await expect(second).rejects.toThrow('the second person left');
      await expect(first).rejects.toThrow('the first person left');
      // The worker answers the aborted task, then takes the next one; the dropped one never ran.
      const next = await workers.run({ type: 'import_pptx', data: pptx, fileName: 'c.pptx', maxContentBytes: LIMIT });
      expect(next.slides.length).toBe(richDeck().slides.length);
      expect(workers.stats()).toEqual({ threads: 1, inWorkers: 2, inline: 0 });
    } finally {
      await workers.close();
    }
  });

  it('refuses to start an import whose signal is already aborted', async () => {
    const gone = new AbortController();
    gone.abort(new Error('the request was closed'));
    const before = officeWorkers.stats();
    await expect(host.imports.importFile({ kind: 'office.document', data: docx, fileName: 'report.docx', operator: 'human:ann', signal: gone.signal })).rejects.toThrow('the request was closed');
    expect(officeWorkers.stats()).toEqual(before);
  });
});
