// Invariant, in real Chromium on the host's page: a pptx and a docx (the kinds' own exports of a
// deck and a document) imported from the page's import form each become a new resource of the kind, opened
// at once, whose view shows the file's slides (each with its picture) or blocks.
import { brokenPictures, importThroughPage, usePageServer } from '@cowork/host/testkit/page';
import { plugin, type DocumentContent, type Presentation } from '../src';
import { deck } from './deck';
import { sampleDocument } from './document-fixtures';

const t = usePageServer({ plugins: [plugin] });

/** `content` as a `kind` resource exported to `format` by the host: the kind's own file. */
async function exported(kind: string, content: unknown, format: string): Promise<Uint8Array> {
  const { id } = await t.server.host.resources.create({ kind, title: `${kind} to export`, content, operator: 'human:ann' });
  return (await t.server.host.exports.export(id, format)).data;
}

const imported = async (title: string) => (await t.server.host.resources.list()).find((r) => r.title === title);

it('imports a pptx from the page as a deck whose view shows its slides', async () => {
  const { page, problems } = await t.signIn();
  try {
    await importThroughPage(page, 'office.presentation', { name: 'q3 review.pptx', data: await exported('office.presentation', deck(), 'pptx') });
    const record = await imported('q3 review');
    expect(record?.kind).toBe('office.presentation');
    expect((record!.content as Presentation).slides.map((s) => s.title)).toEqual(['Welcome', 'The numbers', 'Next steps']);
    for (const title of ['Slide 1: Welcome', 'Slide 2: The numbers', 'Slide 3: Next steps']) await page.locator(`section.group[data-group="${title}"]`).waitFor();
    expect(await page.locator('[data-field="Slide 2 bullets"]').inputValue()).toBe('Revenue up\n  in Europe');
    expect(await brokenPictures(page)).toEqual([]);
    expect(problems).toEqual([]);
  } finally {
    await page.close();
  }
}, 120_000);

it('imports a docx from the page as a document whose view shows its blocks', async () => {
  const { page, problems } = await t.signIn();
  try {
    await importThroughPage(page, 'office.document', { name: 'field report.docx', data: await exported('office.document', sampleDocument(), 'docx') });
    const record = await imported('field report');
    expect(record?.kind).toBe('office.document');
    expect((record!.content as DocumentContent).blocks.map((b) => b.type)).toEqual(['heading', 'paragraph', 'list', 'table', 'paragraph']);
    await page.locator('section.group[data-group="Block 1: heading 1 \\"Introduction\\""]').waitFor();
    await page.locator('section.group[data-group="Block 5: paragraph \\"Next steps follow.\\""]').waitFor();
    expect(await page.locator('[data-field="Block 2 paragraph"]').inputValue()).toBe('Sales rose sharply in spring.');
    expect(problems).toEqual([]);
  } finally {
    await page.close();
  }
}, 120_000);
