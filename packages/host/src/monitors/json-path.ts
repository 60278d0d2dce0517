import { CoworkError } from '../errors';

/** One step into a JSON value: an object key or an array index. */
export type PathStep = string | number;

const STEP = /\.([A-Za-z_$][\w$-]*)|\[(\d+)\]|\[(?:'([^']*)'|"([^"]*)")\]/y;

/**
 * Parses a small JSONPath subset: `$.status`, `$.items[0].state`, `$['odd key']`; the leading `$`
 * may be left out (`status.ready`). No wildcards or filters: a monitor watches one value.
 * A malformed path is `invalid_input` on `field`.
 */
export function parseJsonPath(path: string, field = 'jsonPath'): PathStep[] {
  if (typeof path !== 'string' || path.trim() === '') throw invalid(field, path, 'a JSON path must be a non-empty string');
  let text = path.trim();
  if (text.startsWith('$')) text = text.slice(1);
  else if (!text.startsWith('.') && !text.startsWith('[')) text = `.${text}`;
  const steps: PathStep[] = [];
  STEP.lastIndex = 0;
  while (STEP.lastIndex < text.length) {
    const at = STEP.lastIndex;
    const match = STEP.exec(text);
    if (!match) throw invalid(field, path, `unexpected ${JSON.stringify(text.slice(at, at + 10))} at position ${at}`);
    const [, key, index, single, double] = match;
    steps.push(index !== undefined ? Number(index) : (key ?? single ?? double)!);
  }
  return steps;
}

/** The value at `steps`, or `undefined` where the path does not exist. */
export function valueAt(value: unknown, steps: readonly PathStep[]): unknown {
  let current = value;
  for (const step of steps) {
    if (typeof step === 'number') {
      if (!Array.isArray(current)) return undefined;
      current = current[step];
    } else {
      if (typeof current !== 'object' || current === null || Array.isArray(current) || !Object.hasOwn(current, step)) return undefined;
      current = (current as Record<string, unknown>)[step];
    }
  }
  return current;
}

function invalid(field: string, received: unknown, why: string): CoworkError {
  return new CoworkError('invalid_input', `${field}: ${why} (supported: $.key, $.list[0], $['key'])`, { field, received: String(received) });
}
