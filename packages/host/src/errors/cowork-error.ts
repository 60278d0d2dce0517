import { ERROR_CODES, type ErrorCode } from './codes';

const BRAND = Symbol.for('cowork.error');

/** Structured facts about an error, safe to send over the wire (JSON values only). */
export type ErrorDetails = Record<string, unknown>;

/**
 * The one error type the host throws on purpose. Recognise it with `isCoworkError`, which checks a
 * global brand rather than `instanceof`, so errors thrown by another copy of this package (a plugin
 * with its own node_modules) are still recognised.
 */
export class CoworkError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails;
  readonly [BRAND] = true;

  constructor(code: ErrorCode, message: string, details: ErrorDetails = {}, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CoworkError';
    this.code = code;
    this.details = details;
  }

  get status(): number {
    return ERROR_CODES[this.code].status;
  }

  get retryable(): boolean {
    return ERROR_CODES[this.code].retryable;
  }

  get hint(): string {
    return ERROR_CODES[this.code].hint;
  }

  /** The wire shape: `{"error": {"code", "message", "hint", ...details}}`. */
  toJSON(): { error: { code: ErrorCode; message: string; hint: string } & ErrorDetails } {
    return { error: { ...this.details, code: this.code, message: this.message, hint: this.hint } };
  }
}

export function isCoworkError(value: unknown): value is CoworkError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
}

/** Wraps anything thrown into a CoworkError, keeping a CoworkError as it is. */
export function toCoworkError(value: unknown): CoworkError {
  if (isCoworkError(value)) return value;
  const message = value instanceof Error ? value.message : String(value);
  return new CoworkError('internal', message, {}, { cause: value });
}
