/**
 * The inline content of one WordprocessingML paragraph, in order: text runs with their direct
 * formatting, page breaks and pictures. Styles inherited from the paragraph style (a heading's
 * bold) are not copied into runs: the block type carries them.
 */
import { MAX_FONT_SIZE, MIN_FONT_SIZE, mergeRuns, type Run } from '../shared/runs';
import { attr, child, childrenOf, descendant, isOn, tagOf, textOf, valOf, type XmlNode } from './docx-xml';

/** A picture found in a run: the relationship id of its bytes, its alt text and shown size. */
export type PictureRef = { rId: string; alt: string; widthIn?: number; heightIn?: number };

export type Piece = { kind: 'run'; run: Run } | { kind: 'page_break' } | { kind: 'picture'; picture: PictureRef };

const EMU_PER_INCH = 914400;
/** Containers whose runs belong to the paragraph (links, tracked insertions, content controls, fields). */
const TRANSPARENT = new Set(['w:hyperlink', 'w:ins', 'w:smartTag', 'w:sdt', 'w:sdtContent', 'w:fldSimple', 'w:customXml', 'w:moveTo']);

/** The pieces of a paragraph's content (`w:p` children other than `w:pPr`), adjacent same-style runs merged. */
export function paragraphPieces(nodes: readonly XmlNode[]): Piece[] {
  const pieces: Piece[] = [];
  collect(nodes, pieces);
  return mergePieces(pieces);
}

function collect(nodes: readonly XmlNode[], out: Piece[]): void {
  for (const node of nodes) {
    const tag = tagOf(node);
    if (tag === 'w:r') readRun(childrenOf(node), out);
    else if (tag && TRANSPARENT.has(tag)) collect(childrenOf(node), out);
  }
}

function readRun(parts: XmlNode[], out: Piece[]): void {
  const style = runStyle(childrenOf(child(parts, 'w:rPr')));
  const text = (value: string): void => {
    out.push({ kind: 'run', run: { text: value, ...style } });
  };
  for (const part of parts) {
    switch (tagOf(part)) {
      case 'w:t':
        text(textOf(part));
        break;
      case 'w:tab':
        text('\t');
        break;
      case 'w:br':
        if (attr(part, 'w:type') === 'page') out.push({ kind: 'page_break' });
        else text('\n');
        break;
      case 'w:cr':
        text('\n');
        break;
      case 'w:noBreakHyphen':
        text('-');
        break;
      case 'w:drawing': {
        const picture = pictureOf(childrenOf(part));
        if (picture) out.push({ kind: 'picture', picture });
        break;
      }
    }
  }
}

function runStyle(rPr: XmlNode[]): Omit<Run, 'text'> {
  const color = valOf(rPr, 'w:color');
  const halfPoints = Number(valOf(rPr, 'w:sz'));
  const fonts = child(rPr, 'w:rFonts');
  const font = attr(fonts, 'w:ascii') ?? attr(fonts, 'w:hAnsi');
  return {
    ...(isOn(rPr, 'w:b') ? { bold: true } : {}),
    ...(isOn(rPr, 'w:i') ? { italic: true } : {}),
    ...(isOn(rPr, 'w:u') ? { underline: true } : {}),
    ...(color && /^[0-9A-Fa-f]{6}$/.test(color) ? { color: color.toUpperCase() } : {}),
    ...(halfPoints / 2 >= MIN_FONT_SIZE && halfPoints / 2 <= MAX_FONT_SIZE ? { size: halfPoints / 2 } : {}),
    ...(font && font.length <= 64 ? { font } : {}),
  };
}

/** An inline or floating picture: `a:blip r:embed`, alt text from `wp:docPr`, size from `wp:extent`. */
function pictureOf(drawing: XmlNode[]): PictureRef | undefined {
  const rId = attr(descendant(drawing, 'a:blip'), 'r:embed');
  if (!rId) return undefined;
  const docPr = descendant(drawing, 'wp:docPr');
  const extent = descendant(drawing, 'wp:extent');
  const cx = Number(attr(extent, 'cx'));
  const cy = Number(attr(extent, 'cy'));
  return {
    rId,
    alt: attr(docPr, 'descr') ?? attr(docPr, 'title') ?? '',
    ...(cx > 0 && cy > 0 ? { widthIn: round(cx / EMU_PER_INCH), heightIn: round(cy / EMU_PER_INCH) } : {}),
  };
}

/** Runs between pictures and page breaks merged where their styles match (shared `mergeRuns`), empty runs dropped. */
function mergePieces(pieces: readonly Piece[]): Piece[] {
  const merged: Piece[] = [];
  let runs: Run[] = [];
  const flush = (): void => {
    merged.push(...mergeRuns(runs.filter((run) => run.text !== '')).map((run): Piece => ({ kind: 'run', run })));
    runs = [];
  };
  for (const piece of pieces) {
    if (piece.kind === 'run') {
      runs.push(piece.run);
      continue;
    }
    flush();
    merged.push(piece);
  }
  flush();
  return merged;
}

function round(inches: number): number {
  return Math.round(inches * 1000) / 1000;
}
