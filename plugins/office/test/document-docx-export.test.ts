// Invariant: an exported .docx opens in outside readers without repair: python-docx sees the
// model's headings as Word's `Heading N` styles, its paragraph and list texts (list items with
// their levels), its table cells, its page setup and its images; LibreOffice converts it to a PDF
// holding the text, and a document built as 30 pages gives 30 pages.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openTempHost, type TempHost } from '@cowork/host/testkit';
import { plugin, type DocumentContent } from '../src';
import { RED_PIXEL_PNG, longDocument, sampleDocument } from './document-fixtures';
import { convertWithLibreOffice, pdfPages, pdfText, readWithPythonDocx } from './document-tools';

describe('office.document docx export', () => {
  let host: TempHost;

  beforeAll(async () => {
    host = await openTempHost({ plugins: [plugin], prefix: 'cowork-office-docx-' });
  });

  afterAll(() => host.dispose());

  async function exportToFile(content: DocumentContent, name: string): Promise<string> {
    const r = await host.resources.create({ kind: 'office.document', content, operator: 'human:ann' });
    const result = await host.exports.export(r.id, 'docx');
    expect(result.mediaType).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(result.fileName).toMatch(/\.docx$/);
    const file = join(host.dir, name);
    writeFileSync(file, result.data);
    return file;
  }

  it('is read by python-docx with heading styles, texts, list levels, table cells and page setup', async () => {
    const content = sampleDocument();
    content.blocks.push({ id: 'sub', type: 'heading', level: 2, runs: [{ text: 'Method' }] });
    content.blocks.push({ id: 'steps', type: 'list', ordered: true, items: [{ runs: [{ text: 'Collect' }], level: 0 }, { runs: [{ text: 'Check' }], level: 0 }] });
    content.blocks.push({ id: 'pic', type: 'image', image: { src: RED_PIXEL_PNG, alt: 'A red dot', widthIn: 1, heightIn: 1 } });
    const seen = readWithPythonDocx(await exportToFile(content, 'sample.docx'));

    expect(seen.title).toBe('Field report');
    expect(seen.paragraphs.filter((p) => p.text !== '')).toEqual([
      { style: 'Heading 1', text: 'Introduction', level: null },
      { style: 'Normal', text: 'Sales rose sharply in spring.', level: null },
      { style: 'List Paragraph', text: 'Europe grew', level: 0 },
      { style: 'List Paragraph', text: 'Germany led', level: 1 },
      { style: 'List Paragraph', text: 'Asia held steady', level: 0 },
      { style: 'Normal', text: 'Next steps follow.', level: null },
      { style: 'Heading 2', text: 'Method', level: null },
      { style: 'List Paragraph', text: 'Collect', level: 0 },
      { style: 'List Paragraph', text: 'Check', level: 0 },
    ]);
    expect(seen.tables).toEqual([[['Region', 'Sales'], ['Europe', '120'], ['Asia', '95']]]);
    expect(seen.images).toBe(1);
    expect(seen.section.orientation).toMatch(/PORTRAIT/);
    expect(seen.section.widthMm).toBeCloseTo(210, 0);
    expect(seen.section.heightMm).toBeCloseTo(297, 0);
    expect(seen.section.marginsMm.map((mm) => Math.round(mm))).toEqual([25, 20, 25, 20]);
  });

  it('keeps a landscape Letter page', async () => {
    const content: DocumentContent = { ...sampleDocument(), page: { size: 'Letter', orientation: 'landscape', marginsMm: { top: 10, right: 10, bottom: 10, left: 10 } } };
    const seen = readWithPythonDocx(await exportToFile(content, 'landscape.docx'));
    expect(seen.section.orientation).toMatch(/LANDSCAPE/);
    expect(seen.section.widthMm).toBeCloseTo(279.4, 0);
    expect(seen.section.heightMm).toBeCloseTo(215.9, 0);
  });

  it('converts with LibreOffice to a PDF holding the text, one page per section of a 30-page document', async () => {
    const short = convertWithLibreOffice(await exportToFile(sampleDocument(), 'short.docx'), 'pdf', host.dir);
    expect(pdfPages(short)).toBe(1);
    const text = pdfText(short);
    for (const expected of ['Introduction', 'Sales rose sharply in spring.', 'Germany led', 'Region', 'Europe', '120', 'Next steps follow.']) {
      expect(text).toContain(expected);
    }

    const long = convertWithLibreOffice(await exportToFile(longDocument(30), 'long.docx'), 'pdf', host.dir);
    expect(pdfPages(long)).toBe(30);
    const pages = pdfText(long).split('\f');
    expect(pages[0]).toContain('Section 1');
    expect(pages[29]).toContain('Section 30');
  });
});
