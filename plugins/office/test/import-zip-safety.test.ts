// Invariant: importing a .pptx or .docx through a real Host believes none of its zip headers. A part
// or picture whose real size or CRC-32 differs from what its headers declare, or whose deflate
// stream is cut short, is refused as `invalid_file` (a bomb claiming 100 bytes is stopped, not
// inflated); parts over the unpacking limit (8 MiB each and together, the host's default content
// limit) are refused as `content_too_large` before they are inflated; a picture over the image limit
// is left out unread. Names from the file never reach Object.prototype: an alignment "constructor"
// or a chart element "toLocaleString" is just unknown, and an XML name the parser reserves
// ("constructor") is `invalid_file`, not a plugin failure. Nothing is created by a refused file.
import JSZip from 'jszip';
import { deflateRawSync } from 'node:zlib';
import { isCoworkError } from '@cowork/host';
import { openTempHost, type TempHost, forgeZip, zeroBomb, type ForgedEntry } from '@cowork/host/testkit';
import { plugin, type DocumentContent, type Presentation } from '../src';
import { renderDocx } from '../src/document/export-docx';
import { renderPptx } from '../src/presentation/export-pptx';
import { richDeck } from './deck';
import { RED_PIXEL_PNG, sampleDocument } from './document-fixtures';

const MiB = 1024 * 1024;

/** The entries of a zip, with their contents, ready to be changed and forged again. */
async function entriesOf(data: Uint8Array): Promise<ForgedEntry[]> {
  const zip = await JSZip.loadAsync(data);
  const names = Object.keys(zip.files).filter((name) => !zip.files[name]!.dir);
  return Promise.all(names.map(async (name) => ({ name, data: await zip.file(name)!.async('uint8array') })));
}

/** `entries` with the one named `name` changed by `change` (given its text). */
function changed(entries: ForgedEntry[], name: string, change: (text: string) => Partial<ForgedEntry>): ForgedEntry[] {
  const found = entries.find((entry) => entry.name === name);
  if (!found) throw new Error(`no ${name} among ${entries.map((e) => e.name).join(', ')}`);
  return entries.map((entry) => (entry === found ? { ...entry, ...change(Buffer.from(entry.data as Uint8Array).toString('utf8')) } : entry));
}

/** `text` with `pattern`'s first match replaced; throws when nothing matches, so a test cannot pass by changing nothing. */
function replaced(text: string, pattern: RegExp, replacement: string): string {
  if (!pattern.test(text)) throw new Error(`${pattern} does not occur`);
  return text.replace(pattern, replacement);
}

/** XML text padded with a comment to `bytes` bytes: valid, and as large as asked. */
function padded(xml: string, bytes: number): string {
  const at = xml.lastIndexOf('</');
  return `${xml.slice(0, at)}<!--${'x'.repeat(bytes - xml.length - 7)}-->${xml.slice(at)}`;
}

describe('office imports read zips without believing their headers', () => {
  let host: TempHost;
  let deck: ForgedEntry[];
  let doc: ForgedEntry[];
  let picture: string;

  beforeAll(async () => {
    deck = await entriesOf(await renderPptx(richDeck()));
    const document: DocumentContent = { ...sampleDocument(), blocks: [...sampleDocument().blocks, { id: 'pic', type: 'image', image: { src: RED_PIXEL_PNG, alt: 'A red dot' } }] };
    doc = await entriesOf(await renderDocx(document));
    picture = deck.find((entry) => /^ppt\/media\/.*\.png$/.test(entry.name))!.name;
  });

  beforeEach(async () => {
    host = await openTempHost({ plugins: [plugin], prefix: 'cowork-office-zip-' });
  });

  afterEach(() => host.dispose());

  const importAs = (kind: 'office.presentation' | 'office.document', entries: ForgedEntry[]) =>
    host.imports.importFile({ kind, data: forgeZip(entries), fileName: kind === 'office.document' ? 'report.docx' : 'deck.pptx', operator: 'human:ann' });

  async function refusal(kind: 'office.presentation' | 'office.document', entries: ForgedEntry[]): Promise<{ code: unknown; message: string }> {
    try {
      await importAs(kind, entries);
    } catch (error) {
      if (isCoworkError(error)) return { code: error.code, message: error.message };
      throw error;
    }
    throw new Error('the import was not refused');
  }

  it('imports the forged copies of good files as their originals', async () => {
    const slides = ((await importAs('office.presentation', deck)).content as Presentation).slides;
    expect(slides.map((s) => s.title)).toEqual(richDeck().slides.map((s) => (s.layout === 'blank' ? '' : s.title)));
    expect(slides[3]?.elements?.map((e) => e.type)).toEqual(['chart', 'image']);
    const blocks = ((await importAs('office.document', doc)).content as DocumentContent).blocks;
    expect(blocks.map((b) => b.type)).toEqual(['heading', 'paragraph', 'list', 'table', 'paragraph', 'image']);
  });

  const slide = 'ppt/slides/slide1.xml';
  it.each<[string, 'office.presentation' | 'office.document', () => ForgedEntry[], string, RegExp]>([
    ['a slide that inflates past its declared size', 'office.presentation', () => changed(deck, slide, () => ({ size: 100 })), 'invalid_file', /deck\.pptx is damaged or forged: its entry ppt\/slides\/slide1\.xml inflates to more than the 100 bytes its header declares/],
    ['a 64 MiB bomb claiming 100 bytes as a slide', 'office.presentation', () => changed(deck, slide, () => ({ compressed: zeroBomb(64), size: 100 })), 'invalid_file', /its entry ppt\/slides\/slide1\.xml inflates to more than the 100 bytes/],
    ['a picture bomb claiming 100 bytes', 'office.presentation', () => changed(deck, picture, () => ({ compressed: zeroBomb(64), size: 100 })), 'invalid_file', /its entry ppt\/media\/.*\.png inflates to more than the 100 bytes/],
    ['a slide whose CRC-32 does not match', 'office.presentation', () => changed(deck, slide, () => ({ crc: 1 })), 'invalid_file', /its entry ppt\/slides\/slide1\.xml does not match its CRC-32 checksum/],
    ['a slide whose deflate stream is cut short', 'office.presentation', () => changed(deck, slide, (xml) => ({ compressed: deflateRawSync(xml).subarray(0, 40) })), 'invalid_file', /its entry ppt\/slides\/slide1\.xml has compressed data that is damaged or cut short/],
    ['a slide that declares 1 GiB', 'office.presentation', () => changed(deck, slide, () => ({ compressed: zeroBomb(1), size: 1024 * MiB })), 'content_too_large', /deck\.pptx: ppt\/slides\/slide1\.xml unpacks to 1073741824 bytes; at most 8388608 are read from one entry/],
    ['a valid slide of 9 MiB', 'office.presentation', () => changed(deck, slide, (xml) => ({ data: padded(xml, 9 * MiB) })), 'content_too_large', /ppt\/slides\/slide1\.xml unpacks to 9437184 bytes; at most 8388608/],
    [
      'two valid slides of 5 MiB',
      'office.presentation',
      () => changed(changed(deck, slide, (xml) => ({ data: padded(xml, 5 * MiB) })), 'ppt/slides/slide2.xml', (xml) => ({ data: padded(xml, 5 * MiB) })),
      'content_too_large',
      /deck\.pptx unpacks to more than 8388608 bytes \(ppt\/slides\/slide2\.xml adds 5242880/,
    ],
    ['a slide with an element named "constructor"', 'office.presentation', () => changed(deck, slide, (xml) => ({ data: replaced(xml, /<p:spTree>/, '<p:spTree><constructor/>') })), 'invalid_file', /ppt\/slides\/slide1\.xml is not well-formed XML \(Invalid name: "constructor"/],
    ['a document part that inflates past its declared size', 'office.document', () => changed(doc, 'word/document.xml', () => ({ size: 100 })), 'invalid_file', /report\.docx is damaged or forged: its entry word\/document\.xml inflates to more than the 100 bytes/],
    ['a docx picture bomb claiming 100 bytes', 'office.document', () => changed(doc, 'word/media/image1.png', () => ({ compressed: zeroBomb(64), size: 100 })), 'invalid_file', /its entry word\/media\/image1\.png inflates to more than the 100 bytes/],
    ['a valid document part of 9 MiB', 'office.document', () => changed(doc, 'word/document.xml', (xml) => ({ data: padded(xml, 9 * MiB) })), 'content_too_large', /word\/document\.xml unpacks to 9437184 bytes; at most 8388608/],
  ])('refuses %s', async (_name, kind, entries, code, message) => {
    expect(await refusal(kind, entries())).toEqual({ code, message: expect.stringMatching(message) });
    expect(await host.resources.list()).toEqual([]);
  });

  it('leaves out a picture over the image limit without inflating it', async () => {
    // Honest headers (6 MiB of zeros), but a wrong checksum: had it been inflated it would have been refused.
    const blocks = ((await importAs('office.document', changed(doc, 'word/media/image1.png', () => ({ compressed: zeroBomb(6), size: 6 * MiB, crc: 1 })))).content as DocumentContent).blocks;
    expect(blocks[5]).toMatchObject({ type: 'paragraph', runs: [{ text: '[image "A red dot" was left out: it is 6.0 MB, over the 5 MB limit]' }] });
    const slides = ((await importAs('office.presentation', changed(deck, picture, () => ({ compressed: zeroBomb(6), size: 6 * MiB, crc: 1 })))).content as Presentation).slides;
    expect(slides[3]?.elements?.map((e) => e.type)).toEqual(['chart']);
  });

  it('treats names from the file that Object.prototype has as unknown names', async () => {
    const alignment = changed(doc, 'word/document.xml', (xml) => {
      const p = xml.lastIndexOf('<w:p>', xml.indexOf('Next steps follow.'));
      if (p < 0) throw new Error('no closing paragraph');
      return { data: `${xml.slice(0, p)}<w:p><w:pPr><w:jc w:val="constructor"/></w:pPr>${xml.slice(p + '<w:p>'.length).replace(/^<w:pPr>/, '')}` };
    });
    const closing = ((await importAs('office.document', alignment)).content as DocumentContent).blocks[4];
    expect(closing).toEqual({ id: expect.any(String), type: 'paragraph', runs: [{ text: 'Next steps follow.' }] });

    const chart = deck.find((entry) => /^ppt\/charts\/chart\d+\.xml$/.test(entry.name))!.name;
    const plot = changed(deck, chart, (xml) => ({ data: replaced(xml, /<c:plotArea><c:layout\/>/, '<c:plotArea><c:layout/><toLocaleString/>') }));
    const element = ((await importAs('office.presentation', plot)).content as Presentation).slides[3]?.elements?.[0];
    expect(element).toMatchObject({ type: 'chart', chart: { type: 'bar', labels: ['Jan', 'Feb', 'Mar'] } });
  });
});
