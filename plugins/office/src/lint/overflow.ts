import type { PdfPageText } from '../preview/poppler';
import type { PptxSlideBoxes, Rect, TextBox } from './pptx-boxes';
import { estimateTextFit } from './text-fit';

/** Glyph boxes reach a little past the line they sit on; this much past a box edge is still inside. */
const EDGE_PT = 4;

export interface BoxOverflow {
  readonly box: TextBox;
  /** How far rendered text reaches past the box's top or bottom edge, in points (0: none seen). */
  readonly renderedPt: number;
  /** The box's text reaches the slide's edge on the rendered page: more of it is cut off there. */
  readonly offSlide: boolean;
  readonly estimate: ReturnType<typeof estimateTextFit>;
}

/**
 * The text boxes of one slide whose text does not fit: by the estimate (./text-fit.ts), or on the
 * rendered page. There each word belongs to the text box its centre lies in; a word in no shape
 * belongs to the nearest shape sharing its column, and counts only when that shape is a text box
 * (a table that grew past its frame is not a text box overflowing). A box overflows when one of its
 * words reaches more than `EDGE_PT` past its top or bottom. `page` is the slide's PDF page; its
 * points are scaled to the slide's when the sizes differ.
 */
export function slideOverflows(slide: PptxSlideBoxes, slideSize: { width: number; height: number }, page: PdfPageText | undefined): BoxOverflow[] {
  const rendered = new Map<TextBox, number>();
  const offSlide = new Set<TextBox>();
  const sx = page ? slideSize.width / page.width : 1;
  const sy = page ? slideSize.height / page.height : 1;
  for (const word of page?.words ?? []) {
    const top = word.yMin * sy;
    const bottom = word.yMax * sy;
    const x = ((word.xMin + word.xMax) / 2) * sx;
    const y = (top + bottom) / 2;
    const owner = ownerOf(slide, x, y);
    if (!owner) continue;
    const past = Math.max(bottom - (owner.rect.y + owner.rect.h), owner.rect.y - top);
    if (past <= EDGE_PT) continue;
    rendered.set(owner, Math.max(rendered.get(owner) ?? 0, past));
    if (bottom > slideSize.height - EDGE_PT || top < EDGE_PT) offSlide.add(owner);
  }
  return slide.textBoxes
    .map((box) => ({ box, renderedPt: rendered.get(box) ?? 0, offSlide: offSlide.has(box), estimate: estimateTextFit(box) }))
    .filter((o) => o.renderedPt > 0 || o.estimate.overflows);
}

function ownerOf(slide: PptxSlideBoxes, x: number, y: number): TextBox | undefined {
  const holder = slide.textBoxes.find((box) => inside(box.rect, x, y));
  if (holder) return holder;
  if (slide.others.some((rect) => inside(rect, x, y))) return undefined;
  const nearest = [...slide.textBoxes.map((box) => ({ rect: box.rect, box })), ...slide.others.map((rect) => ({ rect, box: undefined }))]
    .filter(({ rect }) => x >= rect.x && x <= rect.x + rect.w)
    .sort((a, b) => verticalDistance(a.rect, y) - verticalDistance(b.rect, y))[0];
  return nearest?.box;
}

function verticalDistance(rect: Rect, y: number): number {
  return y > rect.y + rect.h ? y - (rect.y + rect.h) : y < rect.y ? rect.y - y : 0;
}

function inside(rect: Rect, x: number, y: number): boolean {
  return x >= rect.x && x <= rect.x + rect.w && y >= rect.y && y <= rect.y + rect.h;
}
