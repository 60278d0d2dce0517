import type { TextBox } from './pptx-boxes';

/**
 * How tall a text box's text is, estimated without a layout engine. The heuristic:
 * - a character is on average `CHAR_WIDTH_EM` of the font size wide (0.5 em: measured on DejaVu
 *   Sans, the font LibreOffice substitutes here, over English prose; bold adds 5 %);
 * - a paragraph takes ceil(characters x average width / usable width) lines, at least one, plus
 *   one line per explicit line break; usable width is the box width less its insets and the
 *   paragraph's indent;
 * - a line is `LINE_HEIGHT` x the font size tall (single spacing; LibreOffice renders 20 pt text
 *   on a 24 pt pitch);
 * - the text overflows when the lines need more than the box's height less its insets, by more
 *   than `TOLERANCE` (the estimate is rough; the rendered PDF confirms it, see ./overflow.ts).
 * Words that do not break evenly make real lines a little longer than the estimate; averages over
 * a paragraph make up for most of it.
 */
export const CHAR_WIDTH_EM = 0.5;
export const LINE_HEIGHT = 1.2;
export const TOLERANCE = 0.05;

export interface TextFit {
  /** Points the text needs and points the box offers for it. */
  readonly neededPt: number;
  readonly availablePt: number;
  readonly lines: number;
  readonly overflows: boolean;
}

export function estimateTextFit(box: TextBox): TextFit {
  const innerWidth = box.rect.w - box.insets.left - box.insets.right;
  const availablePt = box.rect.h - box.insets.top - box.insets.bottom;
  let lines = 0;
  let neededPt = 0;
  for (const p of box.paragraphs) {
    const charWidth = p.fontPt * CHAR_WIDTH_EM * (p.bold ? 1.05 : 1);
    const width = Math.max(innerWidth - p.indentPt, charWidth);
    const breaks = p.text.split('\n');
    const count = breaks.reduce((sum, line) => sum + Math.max(1, Math.ceil((line.length * charWidth) / width)), 0);
    lines += count;
    neededPt += count * p.fontPt * LINE_HEIGHT;
  }
  return { neededPt, availablePt, lines, overflows: neededPt > availablePt * (1 + TOLERANCE) };
}
