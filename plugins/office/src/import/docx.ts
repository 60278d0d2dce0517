/**
 * Import of a `.docx` a person brings: headings (by style), paragraphs with bold/italic/underline
 * runs, bulleted and numbered lists with their levels, tables (plain-text cells), pictures (png,
 * jpeg, gif) and page breaks, plus page size, orientation and margins from the body's section.
 * Anything else (headers, footers, comments, text boxes) is left out. Bytes that are not a
 * readable .docx are refused with `rejectFile`, which says what is wrong.
 */
import { rejectFile } from '@cowork/host';
import { MAX_IMAGE_BYTES, type Image } from '../shared/image';
import { DEFAULT_PAGE, MAX_MARGIN_MM, type DocumentContent, type Margins, type PageSetup } from '../document/content';
import { bodyBlocks } from './docx-body';
import type { PictureRef } from './docx-runs';
import { DocxStyles } from './docx-styles';
import { attr, child, childrenOf, descendant, parseXml, textOf, type XmlNode } from './docx-xml';
import { openPackage, relationshipsOf, relsPathOf, type Relationship } from './ooxml';
import type { SafeZip } from '@cowork/host';

const MM_PER_TWIP = 25.4 / 1440;
const MAX_IMAGE_INCHES = 100;
/** Portrait width and height in twips of the page sizes a document can have. */
const PAGE_TWIPS = { A4: [11906, 16838], Letter: [12240, 15840] } as const;
const RELATIONSHIP = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

export async function importDocx(data: Uint8Array, context: { fileName?: string; signal?: AbortSignal; maxContentBytes?: number } = {}): Promise<DocumentContent> {
  const zip = openPackage(
    data,
    context.fileName ?? 'the .docx',
    (why) => `the file is not a .docx: it is not a readable zip archive (${why}); a .docx saved by Word or LibreOffice is one, an old .doc is not`,
    context.maxContentBytes,
  );
  const mainPath = (await mainPartPath(zip)) ?? 'word/document.xml';
  const main = await readPart(zip, mainPath);
  if (main === undefined) {
    throw rejectFile(`the file is a zip archive but not a Word document: it has no ${mainPath}; save it from Word or LibreOffice as .docx and import again`);
  }
  const dir = mainPath.slice(0, mainPath.lastIndexOf('/') + 1);
  const [styles, numbering, rels, core] = await Promise.all(
    [`${dir}styles.xml`, `${dir}numbering.xml`, relsPathOf(mainPath), 'docProps/core.xml'].map(async (path) => {
      const xml = await readPart(zip, path);
      return xml === undefined ? undefined : parseXml(xml, path);
    }),
  );
  context.signal?.throwIfAborted();

  const body = childrenOf(child(childrenOf(child(parseXml(main, mainPath), 'w:document')), 'w:body'));
  if (body.length === 0) throw rejectFile(`${mainPath} has no w:body: the file is not a Word document or it is damaged`);
  const pictures = await readPictures(zip, relationshipsOf(child(rels ?? [], 'Relationships'), mainPath));
  context.signal?.throwIfAborted();

  return {
    title: titleOf(core, context.fileName),
    page: pageSetup(child(body, 'w:sectPr')),
    blocks: bodyBlocks(body, DocxStyles.read(styles, numbering), (picture) => resolvePicture(picture, pictures)),
  };
}

/** A part's text, or undefined when the package has none; SafeZip refuses a damaged or oversized one. */
function readPart(zip: SafeZip, path: string): Promise<string | undefined> {
  return zip.text(path);
}

/** The main document part named by the package relationships (usually word/document.xml). */
async function mainPartPath(zip: SafeZip): Promise<string | undefined> {
  const xml = await readPart(zip, '_rels/.rels');
  if (xml === undefined) return undefined;
  const rels = relationshipsOf(child(parseXml(xml, '_rels/.rels'), 'Relationships'), '');
  return [...rels.values()].find((rel) => rel.type.endsWith('/officeDocument'))?.path;
}

/** An embedded picture: its declared size, and its bytes when that fits the image limit (a bigger one is never inflated). */
type Picture = { size: number; bytes?: Uint8Array };

/** Every embedded picture the main part refers to, by relationship id. */
async function readPictures(zip: SafeZip, rels: ReadonlyMap<string, Relationship>): Promise<Map<string, Picture>> {
  const pictures = new Map<string, Picture>();
  for (const [id, rel] of rels) {
    if (rel.type !== `${RELATIONSHIP}/image`) continue;
    const entry = zip.entry(rel.path);
    if (entry) pictures.set(id, { size: entry.size, ...(entry.size <= MAX_IMAGE_BYTES ? { bytes: await zip.read(entry) } : {}) });
  }
  return pictures;
}

function resolvePicture(picture: PictureRef, pictures: ReadonlyMap<string, Picture>): Image | string {
  const label = picture.alt ? `image ${JSON.stringify(picture.alt)}` : 'an image';
  const found = pictures.get(picture.rId);
  if (!found) return `[${label} was left out: its picture is linked, not embedded in the file]`;
  const bytes = found.bytes;
  if (!bytes) return `[${label} was left out: it is ${(found.size / 1048576).toFixed(1)} MB, over the ${MAX_IMAGE_BYTES / 1048576} MB limit]`;
  const mediaType = sniffImage(bytes);
  if (!mediaType) return `[${label} was left out: only png, jpeg and gif pictures are imported]`;
  const size = (inches: number | undefined): number | undefined => (inches === undefined ? undefined : Math.min(MAX_IMAGE_INCHES, Math.max(0.01, inches)));
  const widthIn = size(picture.widthIn);
  const heightIn = size(picture.heightIn);
  return {
    src: `data:${mediaType};base64,${Buffer.from(bytes).toString('base64')}`,
    alt: picture.alt,
    ...(widthIn !== undefined ? { widthIn } : {}),
    ...(heightIn !== undefined ? { heightIn } : {}),
  };
}

function sniffImage(bytes: Uint8Array): 'image/png' | 'image/jpeg' | 'image/gif' | undefined {
  if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return 'image/jpeg';
  if (bytes[0] === 0x47 && bytes[1] === 0x49 && bytes[2] === 0x46) return 'image/gif';
  return undefined;
}

/** Page setup from the body's `w:sectPr`: the nearer of A4 and Letter, orientation, margins in mm. */
function pageSetup(sectPr: XmlNode | undefined): PageSetup {
  const parts = childrenOf(sectPr);
  const pgSz = child(parts, 'w:pgSz');
  const width = Number(attr(pgSz, 'w:w'));
  const height = Number(attr(pgSz, 'w:h'));
  if (!(width > 0 && height > 0)) return structuredClone(DEFAULT_PAGE);
  const [short, long] = [Math.min(width, height), Math.max(width, height)];
  const size = Math.hypot(short - PAGE_TWIPS.A4[0], long - PAGE_TWIPS.A4[1]) <= Math.hypot(short - PAGE_TWIPS.Letter[0], long - PAGE_TWIPS.Letter[1]) ? 'A4' : 'Letter';
  const orientation = attr(pgSz, 'w:orient') === 'landscape' || width > height ? 'landscape' : 'portrait';
  const pgMar = child(parts, 'w:pgMar');
  const margin = (side: keyof Margins): number => {
    const twips = Number(attr(pgMar, `w:${side}`));
    return Number.isFinite(twips) ? Math.min(MAX_MARGIN_MM, Math.max(0, Math.round(Math.abs(twips) * MM_PER_TWIP * 10) / 10)) : DEFAULT_PAGE.marginsMm[side];
  };
  return { size, orientation, marginsMm: { top: margin('top'), right: margin('right'), bottom: margin('bottom'), left: margin('left') } };
}

/** `dc:title` from the core properties, else the file name without its extension. */
function titleOf(core: XmlNode[] | undefined, fileName: string | undefined): string {
  const title = core ? descendant(core, 'dc:title') : undefined;
  const text = title ? textOf(title).trim() : '';
  return text || (fileName ?? '').replace(/^.*[\\/]/, '').replace(/\.docx$/i, '');
}
