import { CoworkError } from '../errors';
import type { Json, Operator } from '../store/records';

/**
 * Checks on what callers hand the resource protocol. Every edge (HTTP, WebSocket, CLI, agent tools)
 * reaches these through the service, so a bad input gets the same coded error everywhere.
 */

const OPERATOR = /^(human|agent):[A-Za-z0-9][A-Za-z0-9._@-]{0,127}$/;

export function checkOperator(value: unknown, field = 'operator'): Operator {
  if (typeof value !== 'string' || !OPERATOR.test(value)) {
    throw new CoworkError('invalid_input', `${field} must look like "human:<name>" or "agent:<id>"`, {
      field,
      received: typeof value === 'string' ? value : typeof value,
    });
  }
  return value as Operator;
}

export function checkRevision(value: unknown, field = 'baseRevision'): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new CoworkError('invalid_input', `${field} must be a non-negative integer`, {
      field,
      received: typeof value === 'number' ? value : typeof value,
    });
  }
  return value;
}

/** The most characters a resource's title has. */
export const MAX_TITLE_CHARS = 200;

/** A resource's title: trimmed, 1 to 200 characters, no control characters; undefined when none is given. */
export function checkTitle(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const title = typeof value === 'string' ? value.trim() : undefined;
  if (title === undefined || title.length === 0 || title.length > MAX_TITLE_CHARS || /[\u0000-\u001f\u007f]/.test(title)) {
    throw new CoworkError('invalid_input', `title must be text of 1 to ${MAX_TITLE_CHARS} characters on one line; give another title or none`, { field: 'title' });
  }
  return title;
}

export function checkId(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 200) {
    throw new CoworkError('invalid_input', `${field} must be a non-empty string`, { field });
  }
  return value;
}

/** Serialises a JSON value, refusing non-JSON values and anything over `maxBytes`. */
export function checkJsonSize(value: unknown, maxBytes: number, field: string): number {
  return Buffer.byteLength(serialiseChecked(value, maxBytes, field), 'utf8');
}

/**
 * `JSON.stringify` of a value with the size limit applied; returns the text so that callers store
 * it instead of serialising again. `trusted` skips the walk that refuses functions, undefined and
 * non-finite numbers: for values a kind's pure `applyOp` produced, whose content schema is checked
 * right after.
 */
export function serialiseChecked(value: unknown, maxBytes: number, field: string, trusted = false): string {
  const text = trusted ? JSON.stringify(value) : serialise(value, field);
  if (text === undefined) throw new CoworkError('invalid_input', `${field} must be a JSON value`, { field });
  // A UTF-8 byte is at least one UTF-16 unit and at most three, so most texts skip the exact count.
  const bytes = text.length * 3 <= maxBytes ? text.length : Buffer.byteLength(text, 'utf8');
  if (bytes > maxBytes) {
    // An op this big almost always carries a file (an image, a STEP solid): say so in megabytes.
    const mb = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MB`;
    throw new CoworkError('content_too_large', `${field} is ${bytes} bytes (${mb(bytes)}), over the limit of ${maxBytes} (${mb(maxBytes)}); scale down or compress the file it carries, or split the change`, {
      field,
      bytes,
      limit: maxBytes,
    });
  }
  return text;
}

function serialise(value: unknown, field: string): string {
  if (value === undefined) throw new CoworkError('invalid_input', `${field} is required`, { field });
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new CoworkError('invalid_input', `${field} is not JSON: ${(error as Error).message}`, { field });
  }
  if (text === undefined || !isJsonRoundTrip(value)) {
    throw new CoworkError('invalid_input', `${field} must be a JSON value (no functions, undefined or non-finite numbers)`, {
      field,
    });
  }
  return text;
}

function isJsonRoundTrip(value: unknown): value is Json {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isJsonRoundTrip);
  if (typeof value === 'object') {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return false;
    return Object.values(value as object).every(isJsonRoundTrip);
  }
  return false;
}
