import { isStyled, mergeRuns, type Run } from '../shared/runs';
import { attr, child, children, kids, tagOf, textOf, type XmlNode } from './pptx-xml';

/** One paragraph of a text body: its outline level (`a:pPr lvl`, 0 when absent) and its runs. */
export type Paragraph = { level: number; runs: Run[] };

/** The non-empty paragraphs of a `p:txBody` / `a:txBody`. */
export function paragraphs(txBody: XmlNode | undefined): Paragraph[] {
  return children(txBody, 'a:p')
    .map((p) => ({ level: Number(attr(child(p, 'a:pPr'), 'lvl') ?? 0) || 0, runs: paragraphRuns(p) }))
    .filter((paragraph) => paragraph.runs.some((run) => run.text.trim() !== ''));
}

export function paragraphText(paragraph: Paragraph): string {
  return paragraph.runs.map((run) => run.text).join('');
}

/** Runs of one `a:p` in order: text runs and fields keep their text, a line break becomes a space. */
function paragraphRuns(p: XmlNode): Run[] {
  const runs: Run[] = [];
  for (const node of kids(p)) {
    const tag = tagOf(node);
    if (tag === 'a:r' || tag === 'a:fld') runs.push({ text: textOf(child(node, 'a:t')), ...runStyle(child(node, 'a:rPr')) });
    else if (tag === 'a:br') runs.push({ text: ' ' });
  }
  return mergeRuns(runs.filter((run) => run.text !== ''));
}

/**
 * The style a run states itself: bold, italic, underline and an explicit RGB colour. Sizes and
 * fonts are left to the theme (files state them on nearly every run), and so is plain black,
 * which exporters write as a default.
 */
function runStyle(rPr: XmlNode | undefined): Omit<Run, 'text'> {
  const style: Omit<Run, 'text'> = {};
  if (isOn(attr(rPr, 'b'))) style.bold = true;
  if (isOn(attr(rPr, 'i'))) style.italic = true;
  const underline = attr(rPr, 'u');
  if (underline && underline !== 'none') style.underline = true;
  const color = attr(child(rPr, 'a:solidFill', 'a:srgbClr'), 'val')?.toUpperCase();
  if (color && /^[0-9A-F]{6}$/.test(color) && color !== '000000') style.color = color;
  return style;
}

function isOn(value: string | undefined): boolean {
  return value === '1' || value === 'true';
}

/** Runs worth keeping as runs: only when some piece carries a style. */
export function styledRuns(runs: readonly Run[]): Run[] | undefined {
  return runs.some(isStyled) ? [...runs] : undefined;
}
