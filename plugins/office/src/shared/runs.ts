/**
 * Styled text shared by presentations and documents: a paragraph is a list of runs, each run a
 * piece of text with one style. Style fields are optional so that plain text stays small.
 */
export type Run = {
  text: string;
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  /** Hex colour without '#', as Office writes it: 'RRGGBB'. */
  color?: string;
  /** Font size in points, 6 to 96. */
  size?: number;
  font?: string;
};

/** The style part of a run: what a restyle op sets. */
export type RunStyle = Omit<Run, 'text'>;

export const MIN_FONT_SIZE = 6;
export const MAX_FONT_SIZE = 96;

export const RUN_STYLE_PROPERTIES = {
  bold: { type: 'boolean' },
  italic: { type: 'boolean' },
  underline: { type: 'boolean' },
  color: { type: 'string', pattern: '^[0-9A-Fa-f]{6}$' },
  size: { type: 'number', minimum: MIN_FONT_SIZE, maximum: MAX_FONT_SIZE },
  font: { type: 'string', minLength: 1, maxLength: 64 },
} as const;

export const RUN_SCHEMA = {
  type: 'object',
  properties: { text: { type: 'string' }, ...RUN_STYLE_PROPERTIES },
  required: ['text'],
  additionalProperties: false,
} as const;

export const RUNS_SCHEMA = { type: 'array', items: RUN_SCHEMA } as const;

/** The runs' text joined, styles dropped. */
export function plainText(runs: readonly Run[]): string {
  return runs.map((run) => run.text).join('');
}

/**
 * Sets `style` on the characters [from, to) of `runs`, splitting runs at the edges and merging
 * neighbours that end up styled alike. `false` flags are dropped so plain text stays plain.
 */
export function restyleRuns(runs: readonly Run[], from: number, to: number, style: RunStyle): Run[] {
  const pieces: Run[] = [];
  let offset = 0;
  for (const run of runs) {
    const start = offset;
    const end = offset + run.text.length;
    offset = end;
    const cuts = [start, Math.min(Math.max(from, start), end), Math.min(Math.max(to, start), end), end];
    for (let i = 0; i < 3; i++) {
      const text = run.text.slice(cuts[i]! - start, cuts[i + 1]! - start);
      if (text) pieces.push(i === 1 ? cleanRun({ ...run, ...style, text }) : run.text === text ? run : { ...run, text });
    }
  }
  return mergeRuns(pieces);
}

/** Whether a run carries any style. */
export function isStyled(run: Run): boolean {
  return Object.keys(cleanRun(run)).some((key) => key !== 'text');
}

function cleanRun(run: Run): Run {
  const out: Run = { text: run.text };
  for (const key of ['bold', 'italic', 'underline'] as const) if (run[key]) out[key] = true;
  if (run.color !== undefined) out.color = run.color.toUpperCase();
  if (run.size !== undefined) out.size = run.size;
  if (run.font !== undefined) out.font = run.font;
  return out;
}

/** Joins neighbouring runs that have the same style. */
export function mergeRuns(runs: readonly Run[]): Run[] {
  const merged: Run[] = [];
  for (const run of runs) {
    const last = merged[merged.length - 1];
    if (last && sameStyle(last, run)) merged[merged.length - 1] = { ...last, text: last.text + run.text };
    else merged.push(run);
  }
  return merged;
}

function sameStyle(a: Run, b: Run): boolean {
  return JSON.stringify({ ...cleanRun(a), text: '' }) === JSON.stringify({ ...cleanRun(b), text: '' });
}

/**
 * `runs` spelling `text` instead, for a text edited as plain text (in the page): the unchanged start
 * and end keep their styles, and the changed middle takes the style of the character before it, as
 * typing does in a word processor; so fixing one word of a paragraph keeps its bold phrase bold.
 */
export function retextRuns(runs: readonly Run[], text: string): Run[] {
  const old = plainText(runs);
  if (old === text) return [...runs];
  let start = 0;
  while (start < old.length && start < text.length && old[start] === text[start]) start++;
  let end = 0;
  while (end < old.length - start && end < text.length - start && old[old.length - 1 - end] === text[text.length - 1 - end]) end++;
  // Never split a surrogate pair between the typed part and the kept end (typed characters take
  // the style of the one before them, so the kept start cannot split one).
  if (end > 0 && isHighSurrogate(old.charCodeAt(old.length - end - 1))) end--;
  const styles = runs.flatMap((run) => Array.from({ length: run.text.length }, () => run));
  const typed = styles[start - 1] ?? styles[start] ?? { text: '' };
  const newStyles = [...styles.slice(0, start), ...Array.from({ length: text.length - start - end }, () => typed), ...styles.slice(old.length - end)];
  return mergeRuns(newStyles.map((style, i) => ({ ...style, text: text[i]! })));
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
