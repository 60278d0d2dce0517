// Invariant: importing a .docx keeps its text, headings (by style), lists (kind and levels) and
// tables: an export of ours comes back block for block (runs, alignment, images and page setup
// included, ids aside); a file written by python-docx and one re-saved by LibreOffice come back
// with the same headings, list items and cells; bytes that are not a readable .docx are refused
// with `invalid_file` and create no resource.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import JSZip from 'jszip';
import { isCoworkError } from '@cowork/host';
import { Host } from '@cowork/host/embed';
import { importDocx, plugin, type Block, type DocumentContent } from '../src';
import { renderDocx } from '../src/document/export-docx';
import { RED_PIXEL_PNG, heading, longDocument, sampleDocument } from './document-fixtures';
import { convertWithLibreOffice, runPython } from './document-tools';

/** Every block type and style the model has, on a landscape Letter page. */
function richDocument(): DocumentContent {
  const base = sampleDocument();
  return {
    title: 'Everything',
    page: { size: 'Letter', orientation: 'landscape', marginsMm: { top: 20, right: 15, bottom: 20, left: 15 } },
    blocks: [
      ...base.blocks,
      heading('h2', 'Details', 2),
      heading('h3', 'Fine print', 3),
      { id: 'styled', type: 'paragraph', align: 'center', runs: [
        { text: 'Bold', bold: true }, { text: ' and ' }, { text: 'italic', italic: true }, { text: ', ' },
        { text: 'underlined red', underline: true, color: 'C00000' }, { text: ' big', size: 18, font: 'DejaVu Serif' },
        { text: '\tafter a tab\nand a new line' },
      ] },
      { id: 'steps', type: 'list', ordered: true, items: [
        { runs: [{ text: 'First' }], level: 0 }, { runs: [{ text: 'First a' }], level: 1 }, { runs: [{ text: 'First a i' }], level: 2 }, { runs: [{ text: 'Second' }], level: 0 },
      ] },
      { id: 'brk', type: 'page_break' },
      { id: 'pic', type: 'image', image: { src: RED_PIXEL_PNG, alt: 'A red dot', widthIn: 2, heightIn: 1 } },
      { id: 'plain', type: 'table', table: { header: false, rows: [['multi\nline', ''], ['x', 'y']] } },
      { id: 'empty', type: 'paragraph', runs: [] },
      { id: 'again', type: 'list', ordered: false, items: [{ runs: [{ text: 'A separate list' }], level: 0 }] },
    ],
  };
}

const withoutIds = (blocks: Block[]): unknown[] => blocks.map(({ id: _id, ...rest }) => rest);
const outline = (doc: DocumentContent): unknown[] =>
  doc.blocks.map((b) => {
    switch (b.type) {
      case 'heading': return ['heading', b.level, b.runs.map((r) => r.text).join('')];
      case 'paragraph': return ['paragraph', b.runs.map((r) => r.text).join('')];
      case 'list': return ['list', b.ordered, b.items.map((i) => [i.level, i.runs.map((r) => r.text).join('')])];
      case 'table': return ['table', b.table.rows];
      default: return [b.type];
    }
  });

describe('office.document docx import', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cowork-office-import-'));
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('round-trips an export block for block', async () => {
    const doc = richDocument();
    const back = await importDocx(await renderDocx(doc));
    expect(back.title).toBe(doc.title);
    expect(back.page).toEqual(doc.page);
    expect(withoutIds(back.blocks)).toEqual(withoutIds(doc.blocks));
    expect(back.blocks.map((b) => b.id)).toEqual(doc.blocks.map((_, i) => `b${i + 1}`));

    const long = longDocument(30);
    expect(withoutIds((await importDocx(await renderDocx(long))).blocks)).toEqual(withoutIds(long.blocks));
  });

  it('reads a file written by python-docx: heading styles, List Bullet / List Number paragraphs, a table', async () => {
    const file = join(dir, 'person.docx');
    runPython(`
import docx, sys
from docx.shared import Mm
from docx.enum.section import WD_ORIENT
d = docx.Document()
d.core_properties.title = ''
d.add_heading('Plan', level=1)
p = d.add_paragraph('We ship in ')
p.add_run('May').bold = True
d.add_paragraph('Build', style='List Bullet')
d.add_paragraph('Test', style='List Bullet 2')
d.add_paragraph('Release', style='List Bullet')
d.add_heading('Owners', level=2)
t = d.add_table(rows=2, cols=2)
t.cell(0, 0).text = 'Task'; t.cell(0, 1).text = 'Who'
t.cell(1, 0).text = 'Build'; t.cell(1, 1).text = 'Ann'
d.add_paragraph('Count', style='List Number')
d.add_heading('Deep', level=5)
s = d.sections[0]
s.orientation = WD_ORIENT.LANDSCAPE; s.page_width = Mm(279.4); s.page_height = Mm(215.9)
s.left_margin = Mm(30)
d.save(sys.argv[1])
`, file);
    const doc = await importDocx(readFileSync(file), { fileName: 'person.docx' });
    expect(doc.title).toBe('person');
    expect(doc.page.size).toBe('Letter');
    expect(doc.page.orientation).toBe('landscape');
    expect(doc.page.marginsMm.left).toBe(30);
    expect(outline(doc)).toEqual([
      ['heading', 1, 'Plan'],
      ['paragraph', 'We ship in May'],
      ['list', false, [[0, 'Build'], [1, 'Test'], [0, 'Release']]],
      ['heading', 2, 'Owners'],
      ['table', [['Task', 'Who'], ['Build', 'Ann']]],
      ['list', true, [[0, 'Count']]],
      ['heading', 3, 'Deep'],
    ]);
    const shipped = doc.blocks[1];
    expect(shipped?.type === 'paragraph' && shipped.runs).toEqual([{ text: 'We ship in ' }, { text: 'May', bold: true }]);
  });

  it('splits a table longer than 200 rows, repeating its header, and refuses one wider than 30 columns', async () => {
    const cell = (text: string): string => `<w:tc><w:p><w:r><w:t>${text}</w:t></w:r></w:p></w:tc>`;
    const row = (cells: string[], header = false): string => `<w:tr>${header ? '<w:trPr><w:tblHeader/></w:trPr>' : ''}${cells.map(cell).join('')}</w:tr>`;
    const docxWith = (rows: string): Promise<Uint8Array> => {
      const zip = new JSZip();
      zip.file('word/document.xml', `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:tbl>${rows}</w:tbl></w:body></w:document>`);
      return zip.generateAsync({ type: 'uint8array' });
    };
    const long = row(['Name', 'Value'], true) + Array.from({ length: 450 }, (_, i) => row([`n${i + 1}`, String(i + 1)])).join('');
    const doc = await importDocx(await docxWith(long));
    const tables = doc.blocks.flatMap((b) => (b.type === 'table' ? [b.table] : []));
    expect(tables.map((t) => t.rows.length)).toEqual([200, 200, 53]);
    expect(tables.every((t) => t.header && t.rows[0]?.join() === 'Name,Value')).toBe(true);
    expect(tables.flatMap((t) => t.rows.slice(1).map((r) => r[0]))).toEqual(Array.from({ length: 450 }, (_, i) => `n${i + 1}`));

    let error: unknown;
    await importDocx(await docxWith(row(Array.from({ length: 31 }, (_, i) => `c${i}`)))).catch((caught: unknown) => (error = caught));
    expect(isCoworkError(error) && error.code).toBe('invalid_file');
    expect((error as Error).message).toMatch(/has 31 columns but at most 30/);
  });

  it('reads our export after LibreOffice re-saved it', async () => {
    const ours = join(dir, 'ours.docx');
    writeFileSync(ours, await renderDocx(richDocument()));
    const resaved = convertWithLibreOffice(ours, 'docx:MS Word 2007 XML', join(dir, 'resaved'));
    const doc = await importDocx(readFileSync(resaved));
    const expected = outline(richDocument()).filter((b) => JSON.stringify(b) !== JSON.stringify(['paragraph', '']));
    expect(outline(doc).filter((b) => JSON.stringify(b) !== JSON.stringify(['paragraph', '']))).toEqual(expected);
    expect(doc.page.size).toBe('Letter');
    expect(doc.page.orientation).toBe('landscape');
  });

  describe('refuses what is not a readable .docx', () => {
    let host: Host;

    beforeAll(async () => {
      host = await Host.open({ workspaceDir: join(dir, 'ws'), plugins: [plugin] });
    });

    afterAll(async () => {
      await host.close();
    });

    async function zipOf(files: Record<string, string>): Promise<Uint8Array> {
      const zip = new JSZip();
      for (const [path, text] of Object.entries(files)) zip.file(path, text);
      return zip.generateAsync({ type: 'uint8array' });
    }

    it.each<[string, () => Promise<Uint8Array>, RegExp]>([
      ['random bytes', async () => new Uint8Array(4096).map((_, i) => (i * 7919) % 251), /not a readable zip archive/],
      ['a truncated .docx', async () => (await renderDocx(sampleDocument())).slice(0, 2000), /not a readable zip archive/],
      ['a zip without word/document.xml', () => zipOf({ 'readme.txt': 'hello' }), /has no word\/document\.xml/],
      ['a document.xml that is not XML', () => zipOf({ 'word/document.xml': '<w:document><w:body><w:p></w:body>' }), /word\/document\.xml is not well-formed XML/],
      ['a document.xml without a body', () => zipOf({ 'word/document.xml': '<w:document xmlns:w="x"></w:document>' }), /has no w:body/],
    ])('%s', async (_name, bytes, message) => {
      const data = await bytes();
      const before = (await host.resources.list({ kind: 'office.document' })).length;
      let error: unknown;
      try {
        await host.imports.importFile({ kind: 'office.document', format: 'docx', data, fileName: 'broken.docx', operator: 'human:ann' });
      } catch (caught) {
        error = caught;
      }
      expect(isCoworkError(error) && error.code).toBe('invalid_file');
      expect((error as Error).message).toMatch(message);
      expect(await host.resources.list({ kind: 'office.document' })).toHaveLength(before);
    });

    it('imports a good file through the host as a new resource', async () => {
      const r = await host.imports.importFile({ kind: 'office.document', data: await renderDocx(sampleDocument()), fileName: 'report.docx', operator: 'human:ann' });
      expect(r.kind).toBe('office.document');
      expect(outline(r.content as DocumentContent)).toEqual(outline(sampleDocument()));
    });
  });
});
