import { posix } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import JSZip from 'jszip';

/** EMU per PDF point (914400 per inch, 72 points per inch). */
const EMU_PER_POINT = 12_700;
/** PowerPoint's text size when neither the run nor the placeholder sets one. */
const DEFAULT_FONT_PT = 18;

/** A rectangle in points from the slide's top-left corner. */
export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

export interface TextParagraph {
  readonly text: string;
  /** The largest run size in the paragraph, in points. */
  readonly fontPt: number;
  readonly bold: boolean;
  /** Left margin of the paragraph (bullet indent), in points. */
  readonly indentPt: number;
}

export interface TextBox {
  readonly name: string;
  /** The placeholder type (`title`, `body`, ...) when the box is one. */
  readonly placeholder?: string;
  readonly rect: Rect;
  /** Inner margins in points (bodyPr lIns, tIns, rIns, bIns; Office's defaults 7.2 and 3.6). */
  readonly insets: { readonly left: number; readonly top: number; readonly right: number; readonly bottom: number };
  readonly paragraphs: readonly TextParagraph[];
}

/** What one slide of a pptx holds: its text boxes, and the rectangles of its other shapes (pictures, tables, charts, empty shapes). */
export interface PptxSlideBoxes {
  readonly textBoxes: readonly TextBox[];
  readonly others: readonly Rect[];
}

export interface PptxBoxes {
  /** Slide size in points. */
  readonly width: number;
  readonly height: number;
  /** In presentation order. */
  readonly slides: readonly PptxSlideBoxes[];
}

type Node = Record<string, unknown>;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  // Text stays text ("2024" is a title, not a number).
  parseTagValue: false,
  isArray: (name) => ['p:sp', 'p:pic', 'p:graphicFrame', 'p:grpSp', 'a:p', 'a:r', 'a:fld', 'a:br', 'p:sldId', 'Relationship'].includes(name),
});

/**
 * Reads the geometry and text of every slide of a pptx: each text box's rectangle, insets and
 * paragraphs (text, size, boldness, indent), and the rectangles of the other shapes. A placeholder that
 * carries no position of its own takes its layout's. Group shapes are skipped (no exporter here writes them).
 */
export async function readPptxBoxes(data: Uint8Array): Promise<PptxBoxes> {
  const zip = await JSZip.loadAsync(data);
  const xml = async (path: string): Promise<Node> => {
    const file = zip.file(path);
    if (!file) throw new Error(`the pptx has no ${path}`);
    return parser.parse(await file.async('string')) as Node;
  };
  const presentation = node(await xml('ppt/presentation.xml'), 'p:presentation');
  const size = node(presentation, 'p:sldSz');
  const rels = relationships(await xml('ppt/_rels/presentation.xml.rels'), 'ppt/');
  const slidePaths = list(node(presentation, 'p:sldIdLst'), 'p:sldId').map((id) => rels.get(String(id['@r:id'])) ?? '');
  const slides: PptxSlideBoxes[] = [];
  for (const path of slidePaths) {
    const slideRels = relationships(await xml(`${posix.dirname(path)}/_rels/${posix.basename(path)}.rels`), `${posix.dirname(path)}/`);
    const layoutPath = [...slideRels.values()].find((target) => target.includes('slideLayouts/'));
    const layout = layoutPath ? shapeTree(await xml(layoutPath), 'p:sldLayout') : {};
    slides.push(slideBoxes(shapeTree(await xml(path), 'p:sld'), layout));
  }
  return { width: emu(size['@cx']), height: emu(size['@cy']), slides };
}

function slideBoxes(tree: Node, layout: Node): PptxSlideBoxes {
  const layoutRects = new Map<string, Rect>();
  for (const shape of list(layout, 'p:sp')) {
    const ph = placeholderOf(shape);
    const rect = rectOf(node(node(shape, 'p:spPr'), 'a:xfrm'));
    if (ph && rect) layoutRects.set(ph.key, rect);
  }
  const textBoxes: TextBox[] = [];
  const others: Rect[] = [];
  for (const shape of list(tree, 'p:sp')) {
    const ph = placeholderOf(shape);
    const rect = rectOf(node(node(shape, 'p:spPr'), 'a:xfrm')) ?? (ph ? layoutRects.get(ph.key) : undefined);
    if (!rect) continue;
    const body = node(shape, 'p:txBody');
    const paragraphs = list(body, 'a:p').map(paragraph).filter((p) => p.text.length > 0);
    if (paragraphs.length === 0) {
      others.push(rect);
      continue;
    }
    const name = String(node(node(shape, 'p:nvSpPr'), 'p:cNvPr')['@name'] ?? '');
    textBoxes.push({ name, placeholder: ph?.type, rect, insets: insets(node(body, 'a:bodyPr')), paragraphs });
  }
  for (const pic of list(tree, 'p:pic')) {
    const rect = rectOf(node(node(pic, 'p:spPr'), 'a:xfrm'));
    if (rect) others.push(rect);
  }
  for (const frame of list(tree, 'p:graphicFrame')) {
    const rect = rectOf(node(frame, 'p:xfrm'));
    if (rect) others.push(rect);
  }
  return { textBoxes, others };
}

function paragraph(p: Node): TextParagraph {
  const runs = [...list(p, 'a:r'), ...list(p, 'a:fld')];
  // A line break inside a paragraph starts a new line; counted as a newline in the text.
  const text = runs.map((r) => String(r['a:t'] ?? '')).join('') + '\n'.repeat(list(p, 'a:br').length);
  const sizes = runs.map((r) => Number(node(r, 'a:rPr')['@sz'] ?? 0)).filter((sz) => sz > 0);
  const end = Number(node(p, 'a:endParaRPr')['@sz'] ?? 0);
  const fontPt = sizes.length > 0 ? Math.max(...sizes) / 100 : end > 0 ? end / 100 : DEFAULT_FONT_PT;
  const bold = runs.some((r) => ['1', 'true'].includes(String(node(r, 'a:rPr')['@b'])));
  return { text: text.trimEnd() === '' ? '' : text, fontPt, bold, indentPt: emu(node(p, 'a:pPr')['@marL'] ?? 0) };
}

function insets(bodyPr: Node): TextBox['insets'] {
  const inset = (name: string, fallback: number): number => (bodyPr[name] === undefined ? fallback : emu(bodyPr[name]));
  return { left: inset('@lIns', 7.2), top: inset('@tIns', 3.6), right: inset('@rIns', 7.2), bottom: inset('@bIns', 3.6) };
}

function placeholderOf(shape: Node): { key: string; type: string } | undefined {
  const nvPr = node(node(shape, 'p:nvSpPr'), 'p:nvPr');
  if (!('p:ph' in nvPr)) return undefined;
  // `<p:ph/>` parses as an empty string: a body placeholder with no index.
  const ph = node(nvPr, 'p:ph');
  const type = String(ph['@type'] ?? 'body');
  return { key: ph['@idx'] !== undefined ? `idx:${String(ph['@idx'])}` : `type:${type}`, type };
}

function rectOf(xfrm: Node): Rect | undefined {
  const off = node(xfrm, 'a:off');
  const ext = node(xfrm, 'a:ext');
  if (off['@x'] === undefined || ext['@cx'] === undefined) return undefined;
  return { x: emu(off['@x']), y: emu(off['@y']), w: emu(ext['@cx']), h: emu(ext['@cy']) };
}

function shapeTree(doc: Node, root: string): Node {
  return node(node(node(doc, root), 'p:cSld'), 'p:spTree');
}

/** Relationship id → target path inside the zip, resolved against `base`. */
function relationships(doc: Node, base: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const rel of list(node(doc, 'Relationships'), 'Relationship')) {
    map.set(String(rel['@Id']), resolvePath(base, String(rel['@Target'])));
  }
  return map;
}

function resolvePath(base: string, target: string): string {
  const parts = (target.startsWith('/') ? target.slice(1) : base + target).split('/');
  const out: string[] = [];
  for (const part of parts) {
    if (part === '..') out.pop();
    else if (part !== '.') out.push(part);
  }
  return out.join('/');
}

function node(parent: Node, name: string): Node {
  const value = parent[name];
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Node) : {};
}

function list(parent: Node, name: string): Node[] {
  const value = parent[name];
  return Array.isArray(value) ? value.filter((v): v is Node => typeof v === 'object' && v !== null) : [];
}

function emu(value: unknown): number {
  return Number(value ?? 0) / EMU_PER_POINT;
}
