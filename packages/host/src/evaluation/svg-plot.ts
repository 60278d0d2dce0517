import { fixed } from './number-format';

/*
 * Small inline SVG plots for the HTML report: horizontal bars (one row per task, so a suite of a
 * hundred tasks stays readable) and a line. No scripts, no external references (inline SVG in HTML
 * needs no namespace URL); every text goes through `escapeHtml`.
 */

/** Escapes text for HTML element content and double- or single-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export interface Bar {
  readonly label: string;
  readonly value: number;
  /** Written at the end of the bar; default the value with one decimal. */
  readonly text?: string;
  /** `bad` draws the bar in the failure colour (a task with invalid trials). */
  readonly tone?: 'normal' | 'bad';
}

const WIDTH = 720;
const ROW = 18;
const LABEL_CHARS = 34;

/** Horizontal bars from 0 to `max` (default the largest value), a row per bar, with the value at the end. */
export function barChart(options: { readonly title: string; readonly bars: readonly Bar[]; readonly max?: number; readonly unit?: string }): string {
  const { title, bars } = options;
  const longest = Math.min(LABEL_CHARS, Math.max(4, ...bars.map((b) => b.label.length)));
  const labelWidth = 12 + longest * 6.6;
  const textWidth = 90;
  const plotWidth = WIDTH - labelWidth - textWidth;
  const max = options.max ?? Math.max(0, ...bars.map((b) => b.value));
  const top = 28;
  const height = top + bars.length * ROW + 8;
  const rows = bars.map((bar, i) => {
    const y = top + i * ROW;
    const width = max > 0 ? Math.max(0, Math.min(1, bar.value / max)) * plotWidth : 0;
    const label = bar.label.length > LABEL_CHARS ? `${bar.label.slice(0, LABEL_CHARS - 1)}…` : bar.label;
    const text = bar.text ?? fixed(bar.value);
    return (
      `<g><title>${escapeHtml(`${bar.label}: ${text}${options.unit ? ` ${options.unit}` : ''}`)}</title>` +
      `<text x="${n(labelWidth - 6)}" y="${n(y + 12)}" text-anchor="end">${escapeHtml(label)}</text>` +
      `<rect x="${n(labelWidth)}" y="${n(y + 2)}" width="${n(width)}" height="${ROW - 5}" class="${bar.tone === 'bad' ? 'bar bad' : 'bar'}"/>` +
      `<text x="${n(labelWidth + width + 4)}" y="${n(y + 12)}">${escapeHtml(text)}</text></g>`
    );
  });
  return (
    `<svg class="plot" role="img" aria-label="${escapeHtml(title)}" viewBox="0 0 ${WIDTH} ${n(height)}" width="${WIDTH}" height="${n(height)}">` +
    `<text x="0" y="16" class="plot-title">${escapeHtml(title)}</text>` +
    `<line x1="${n(labelWidth)}" y1="${top}" x2="${n(labelWidth)}" y2="${n(height - 8)}" class="axis"/>` +
    rows.join('') +
    `</svg>`
  );
}

export interface Point {
  readonly x: number;
  readonly y: number;
}

/** Decimals that keep a quarter of `yMax` apart from the next (a loss under 1 read "0, 0, 1, 1, 1" with none). */
export function tickDigits(yMax: number): number {
  if (!(yMax > 0) || !Number.isFinite(yMax)) return 0;
  return Math.min(4, Math.max(0, 2 - Math.floor(Math.log10(yMax))));
}

/** A line through `points` (x ascending), y from 0 to `yMax`, with ticks at each x (thinned past 20) and every quarter of y. */
export function lineChart(options: {
  readonly title: string;
  readonly points: readonly Point[];
  readonly xLabel: string;
  readonly yLabel: string;
  readonly yMax: number;
}): string {
  const { title, points, yMax } = options;
  const left = 48;
  const right = 20;
  const top = 30;
  const plotHeight = 200;
  const plotWidth = 420 - left - right;
  const width = left + plotWidth + right;
  const height = top + plotHeight + 44;
  const xs = points.map((p) => p.x);
  const xMin = Math.min(...xs);
  const xMax = Math.max(...xs);
  const px = (x: number): number => left + (xMax === xMin ? plotWidth / 2 : ((x - xMin) / (xMax - xMin)) * plotWidth);
  const py = (y: number): number => top + plotHeight - (yMax > 0 ? Math.min(1, Math.max(0, y / yMax)) : 0) * plotHeight;
  const every = Math.ceil(points.length / 20);
  const xTicks = points
    .filter((_, i) => i % every === 0)
    .map((p) => `<text x="${n(px(p.x))}" y="${n(top + plotHeight + 16)}" text-anchor="middle">${escapeHtml(fixed(p.x, 0))}</text>`);
  const yTicks = [0, 0.25, 0.5, 0.75, 1].map((q) => {
    const y = py(q * yMax);
    return (
      `<line x1="${left}" y1="${n(y)}" x2="${n(left + plotWidth)}" y2="${n(y)}" class="grid"/>` +
      `<text x="${left - 6}" y="${n(y + 4)}" text-anchor="end">${escapeHtml(fixed(q * yMax, tickDigits(yMax)))}</text>`
    );
  });
  const path = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${n(px(p.x))},${n(py(p.y))}`).join(' ');
  const dots = points.map(
    (p) =>
      `<circle cx="${n(px(p.x))}" cy="${n(py(p.y))}" r="3" class="dot"><title>${escapeHtml(`${options.xLabel} ${fixed(p.x, 0)}: ${fixed(p.y)}`)}</title></circle>`,
  );
  return (
    `<svg class="plot" role="img" aria-label="${escapeHtml(title)}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">` +
    `<text x="0" y="16" class="plot-title">${escapeHtml(title)}</text>` +
    yTicks.join('') +
    xTicks.join('') +
    `<line x1="${left}" y1="${top}" x2="${left}" y2="${top + plotHeight}" class="axis"/>` +
    `<line x1="${left}" y1="${top + plotHeight}" x2="${left + plotWidth}" y2="${top + plotHeight}" class="axis"/>` +
    (points.length > 1 ? `<path d="${path}" class="line"/>` : '') +
    dots.join('') +
    `<text x="${n(left + plotWidth / 2)}" y="${height - 6}" text-anchor="middle">${escapeHtml(options.xLabel)}</text>` +
    `<text x="12" y="${n(top + plotHeight / 2)}" text-anchor="middle" transform="rotate(-90 12 ${n(top + plotHeight / 2)})">${escapeHtml(options.yLabel)}</text>` +
    `</svg>`
  );
}

/** A coordinate with at most one decimal. */
function n(value: number): string {
  return String(Math.round(value * 10) / 10);
}
