/**
 * The few Python behaviours the reference tools' results depend on, done exactly: `round(x, 2)` on
 * a float (correctly rounded, ties to even), `repr(float)` (how `str()` and `json.dumps` print a
 * float), and `json.dumps` itself (its separators, `ensure_ascii`, `sort_keys`). Every number of
 * the retail data model is a Python float, so every number here prints as one (`100.0`).
 */

/** Python's `round(x, 2)` for a float. */
export function pyRound2(x: number): number {
  // Any double this large is an integer already, and round() gives it back unchanged.
  if (!Number.isFinite(x) || x === 0 || Math.abs(x) >= 2 ** 50) return x;
  // A value exactly halfway between two hundredths is an odd multiple of 1/8 (k/200 is a binary
  // fraction only when 25 divides k); Python rounds those to even, toFixed away from zero.
  const eighths = x * 8;
  if (Number.isInteger(eighths) && Math.abs(eighths) % 2 === 1) {
    const hundredths = x * 100; // exact: an odd multiple of 12.5
    const low = Math.floor(hundredths);
    const cents = Math.abs(low) % 2 === 0 ? low : low + 1;
    return Number(`${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, '0')}`);
  }
  // Otherwise the nearest hundredth of the exact binary value, which toFixed computes.
  return Number(x.toFixed(2));
}

/** Python's `repr(x)` (and `str(x)`) for a float: the shortest round-trip digits, Python's layout. */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  // Where both print positional notation (JavaScript up to 1e21, Python below 1e16) the digits are the same shortest ones.
  const magnitude = Math.abs(x);
  if (magnitude >= 1e-4 && magnitude < 1e16) {
    const text = String(x);
    return Number.isInteger(x) ? `${text}.0` : text;
  }
  const sign = x < 0 ? '-' : '';
  const [mantissa, exponentText] = Math.abs(x).toExponential().split('e') as [string, string];
  const exponent = Number(exponentText);
  const digits = mantissa.replace('.', '');
  if (exponent < -4 || exponent >= 16) {
    const m = digits.length === 1 ? digits : `${digits[0]}.${digits.slice(1)}`;
    return `${sign}${m}e${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
  const fraction = digits.slice(exponent + 1);
  return `${sign}${whole}.${fraction === '' ? '0' : fraction}`;
}

/** A number Python holds as an int (printed without `.0`). */
export class PyInt {
  constructor(readonly value: number) {}
}

export interface PyJsonOptions {
  /** `sort_keys=True`. */
  readonly sortKeys?: boolean;
  /** `separators=(',', ':')` instead of Python's default `(', ', ': ')`. */
  readonly compact?: boolean;
}

/**
 * Python's `json.dumps(value)` (ensure_ascii on, no indent) of a JSON value whose numbers are all
 * Python floats. Keys come out in the object's own order unless `sortKeys`.
 */
export function pyJson(value: unknown, options: PyJsonOptions = {}): string {
  const item = options.compact ? ',' : ', ';
  const pair = options.compact ? ':' : ': ';
  const write = (v: unknown): string => {
    if (v === null || v === undefined) return 'null';
    if (v === true) return 'true';
    if (v === false) return 'false';
    if (typeof v === 'number') {
      if (Number.isNaN(v)) return 'NaN';
      if (v === Infinity) return 'Infinity';
      if (v === -Infinity) return '-Infinity';
      return pyFloatRepr(v);
    }
    if (typeof v === 'string') return pyString(v);
    if (v instanceof PyInt) return String(v.value);
    if (Array.isArray(v)) return `[${v.map(write).join(item)}]`;
    // A Map is an object whose keys keep the Map's order (item ids that look like array indices included).
    if (v instanceof Map) return `{${[...v].map(([k, x]) => `${pyString(String(k))}${pair}${write(x)}`).join(item)}}`;
    if (typeof v === 'object') {
      const keys = Object.keys(v as object);
      if (options.sortKeys) keys.sort(compareCodePoints);
      return `{${keys.map((k) => `${pyString(k)}${pair}${write((v as Record<string, unknown>)[k])}`).join(item)}}`;
    }
    throw new TypeError(`Object of type ${typeof v} is not JSON serializable`);
  };
  return write(value);
}

const PLAIN = /^[ !#-[\]-~]*$/;
const SHORT_ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

/** A string as `json.dumps` writes it with ensure_ascii: anything outside space..~ escaped per UTF-16 unit. */
function pyString(s: string): string {
  if (PLAIN.test(s)) return `"${s}"`;
  return `"${s.replace(/[\\"]|[^ -~]/g, (c) => SHORT_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}

/** Python's string order (code points); equal to UTF-16 order for the ASCII keys of this data. */
function compareCodePoints(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** The canonical text of a database: sorted keys, compact, Python floats; equal texts mean equal databases. */
export function canonicalJson(value: unknown): string {
  return pyJson(value, { sortKeys: true, compact: true });
}
