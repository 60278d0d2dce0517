// Invariant: office_lint, run as a tool on a real Host over real LibreOffice renders, finds nothing
// on a clean deck; finds text overflowing its box (confirmed on the rendered slide: an error when
// lines are outside it, a warning when a title spills a few points), an empty title,
// a slide whose page rendered blank, and a slide the PDF lacks (a render with fewer pages, built
// from a real shorter deck); on a document it finds an empty heading and the blank page two page
// breaks leave. office_preview writes one PNG per slide into the workspace. Both refuse other kinds.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Json, type ToolContext, type ToolResult } from '@cowork/host';
import { openTempHost, type TempHost } from '@cowork/host/testkit';
import { PNG } from 'pngjs';
import { plugin, type Presentation } from '../src';
import { lintPresentation } from '../src/lint/presentation-lint';
import { readPptxBoxes } from '../src/lint/pptx-boxes';
import { renderPptx } from '../src/presentation/export-pptx';
import { renderContent } from '../src/preview/exports';
import { deck, richDeck, slide } from './deck';
import { heading, sampleDocument } from './document-fixtures';

type Finding = { severity: string; where: string; code: string; message: string };

describe('office_lint and office_preview', () => {
  let host: TempHost;

  beforeAll(async () => {
    host = await openTempHost({ plugins: [plugin], prefix: 'cowork-office-lint-' });
  });

  afterAll(() => host.dispose());

  async function call(name: string, input: Json): Promise<ToolResult> {
    const tool = plugin.tools.find((t) => t.name === name);
    if (!tool) throw new Error(`no tool ${name}`);
    expect(tool.permissions).toEqual([{ access: 'read' }]);
    const context: ToolContext = { operator: 'agent:a1', signal: new AbortController().signal, host: { workspaceDir: host.workspaceDir, resources: host.resources } };
    return tool.handler(input, context);
  }

  async function lint(kind: string, content: Json): Promise<Finding[]> {
    const r = await host.resources.create({ kind, content, operator: 'human:ann' });
    const result = await call('office_lint', { resourceId: r.id });
    expect(result.isError).toBeFalsy();
    return (result.content as { findings: Finding[] }).findings;
  }

  it('finds nothing on a clean deck', async () => {
    expect(await lint('office.presentation', richDeck())).toEqual([]);
  });

  it('finds overflowing text, an empty title and a slide that rendered blank', async () => {
    const content = richDeck();
    const long = Array.from({ length: 16 }, (_, i) => ({ text: `A bullet long enough to fill most of a line, number ${i + 1}`, level: 0 }));
    content.slides.push(
      slide('crowded', 'Everything we learned', { bullets: long }),
      slide('untitled', '', { bullets: [{ text: 'A point without a heading', level: 0 }] }),
      slide('ghost', 'White on white', { layout: 'title', titleStyle: { color: 'FFFFFF' } }),
      slide('wordy', 'A title that is really much too long to fit on one line of the slide', { layout: 'title_only' }),
    );
    const findings = await lint('office.presentation', content as unknown as Json);
    expect(findings).toContainEqual(expect.objectContaining({ severity: 'error', where: 'slide 6 [crowded]', code: 'text_overflow' }));
    expect(findings).toContainEqual(expect.objectContaining({ severity: 'warning', where: 'slide 7 [untitled]', code: 'empty_placeholder' }));
    expect(findings).toContainEqual(expect.objectContaining({ severity: 'error', where: 'slide 8 [ghost]', code: 'page_not_rendered' }));
    // A second title line spills a few points past the title box: seen on the page, but less than a line.
    expect(findings).toContainEqual(expect.objectContaining({ severity: 'warning', where: 'slide 9 [wordy]', code: 'text_overflow' }));
    // The clean slides of the rich deck stay clean, and errors come first.
    expect(findings.filter((f) => /^slide [1-5] /.test(f.where))).toEqual([]);
    expect(findings[0]!.severity).toBe('error');
  });

  it('reports the slides a render lacks', async () => {
    const full = deck();
    const short: Presentation = { ...full, slides: full.slides.slice(0, 2) };
    const signal = new AbortController().signal;
    const render = await renderContent(short, 'pptx', renderPptx, signal);
    const findings = lintPresentation(full, { boxes: await readPptxBoxes(await renderPptx(full)), render });
    expect(findings.filter((f) => f.code === 'page_not_rendered')).toEqual([
      expect.objectContaining({ severity: 'error', where: 'slide 3 [next]', message: expect.stringContaining('2 pages for 3 slides') }),
    ]);
  });

  it('finds an empty heading and the blank page of two page breaks in a row in a document', async () => {
    const content = sampleDocument();
    content.blocks.push({ id: 'break-1', type: 'page_break' }, { id: 'break-2', type: 'page_break' }, heading('appendix', ''), {
      id: 'notes',
      type: 'paragraph',
      runs: [{ text: 'Appendix notes.' }],
    });
    const findings = await lint('office.document', content as unknown as Json);
    expect(findings).toContainEqual(expect.objectContaining({ where: 'block [appendix]', code: 'empty_placeholder' }));
    expect(findings).toContainEqual(expect.objectContaining({ where: 'page 2', code: 'page_not_rendered' }));
    expect(await lint('office.document', sampleDocument() as unknown as Json)).toEqual([]);
  });

  it('writes a PNG per slide into the workspace with office_preview', async () => {
    const r = await host.resources.create({ kind: 'office.presentation', content: deck(), operator: 'human:ann' });
    await host.resources.commit(r.id, { baseRevision: 0, op: { type: 'edit_title', slideId: 'next', title: 'What comes next' }, operator: 'human:ann' });
    const result = await call('office_preview', { resourceId: r.id, revision: 0 });
    expect(result.isError).toBeFalsy();
    const preview = result.content as { revision: number; pageCount: number; pages: { page: number; path: string; width: number; height: number; bytes: number }[] };
    expect(preview.revision).toBe(0);
    expect(preview.pageCount).toBe(3);
    expect(preview.pages.map((p) => p.path)).toEqual([1, 2, 3].map((n) => join(host.workspaceDir, 'artifacts', 'previews', r.id, 'r0', `page-${n}.png`)));
    for (const page of preview.pages) {
      expect(existsSync(page.path)).toBe(true);
      const image = PNG.sync.read(readFileSync(page.path));
      expect([image.width, image.height, readFileSync(page.path).byteLength]).toEqual([page.width, page.height, page.bytes]);
    }
  });

  it('refuses a resource of another kind as a tool error the model can read', async () => {
    const r = await host.resources.create({ kind: 'text', content: { text: 'hello' }, operator: 'human:ann' });
    for (const name of ['office_lint', 'office_preview']) {
      const result = await call(name, { resourceId: r.id });
      expect(result.isError).toBe(true);
      expect(result.content).toMatchObject({ error: { code: 'invalid_input', kind: 'text' } });
    }
  });
});
