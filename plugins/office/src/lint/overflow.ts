import type { PdfPageText } from '../preview/poppler';
import type { PptxSlideBoxes, Rect, TextBox } from './pptx-boxes';
import { estimateTextFit } from './text-fit';

/** Glyph boxes reach a little past the line they sit on; closer than this to a shape counts as inside it. */
const EDGE_PT = 4;

export interface BoxOverflow {
  readonly box: TextBox;
  /** How far rendered text reaches past the box's top or bottom edge, in points (0: none seen). */
  readonly renderedPt: number;
  readonly estimate: ReturnType<typeof estimateTextFit>;
}

/**
 * The text boxes of one slide whose text does not fit: by the estimate (./text-fit.ts), or on the
 * rendered page, where a word that lies inside no shape of the slide, above or below a text box
 * whose width it shares, is that box's text running out of it (the nearest such box takes it).
 * `page` is the slide's page of the PDF; its points are scaled to the slide's when sizes differ.
 */
export function slideOverflows(slide: PptxSlideBoxes, slideSize: { width: number; height: number }, page: PdfPageText | undefined): BoxOverflow[] {
  const rendered = new Map<TextBox, number>();
  if (page) {
    const sx = slideSize.width / page.width;
    const sy = slideSize.height / page.height;
    for (const word of page.words) {
      const x = ((word.xMin + word.xMax) / 2) * sx;
      const top = word.yMin * sy;
      const bottom = word.yMax * sy;
      const y = (top + bottom) / 2;
      if (slide.shapes.some((rect) => inside(rect, x, y))) continue;
      const owner = nearestBox(slide.textBoxes, x, y);
      if (!owner) continue;
      const past = Math.max(bottom - (owner.rect.y + owner.rect.h), owner.rect.y - top, 0);
      rendered.set(owner, Math.max(rendered.get(owner) ?? 0, past));
    }
  }
  return slide.textBoxes
    .map((box) => ({ box, renderedPt: rendered.get(box) ?? 0, estimate: estimateTextFit(box) }))
    .filter((o) => o.renderedPt > 0 || o.estimate.overflows);
}

/** The text box sharing the word's column whose nearer horizontal edge is closest to it. */
function nearestBox(boxes: readonly TextBox[], x: number, y: number): TextBox | undefined {
  let best: TextBox | undefined;
  let bestDistance = Infinity;
  for (const box of boxes) {
    if (x < box.rect.x || x > box.rect.x + box.rect.w) continue;
    const distance = y > box.rect.y + box.rect.h ? y - (box.rect.y + box.rect.h) : y < box.rect.y ? box.rect.y - y : 0;
    if (distance < bestDistance) {
      best = box;
      bestDistance = distance;
    }
  }
  return best;
}

function inside(rect: Rect, x: number, y: number): boolean {
  return x >= rect.x - EDGE_PT && x <= rect.x + rect.w + EDGE_PT && y >= rect.y - EDGE_PT && y <= rect.y + rect.h + EDGE_PT;
}
