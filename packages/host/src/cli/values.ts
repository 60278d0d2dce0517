import { CoworkError } from '../errors';
import type { Operator } from '../store/records';
import type { CliIo } from './output';

/**
 * Turns option strings into the values the host takes. Each check throws the host's own error
 * codes, and runs before the host is opened, so bad input never writes anything.
 */

/** `--op` and `--content`: malformed JSON is `invalid_json`. */
export function parseJsonOption(name: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new CoworkError('invalid_json', `--${name} is not valid JSON: ${(error as Error).message}`, { field: name });
  }
}

/** `--base`, `--revision`, `--since`: a non-negative integer written in decimal digits. */
export function parseRevisionOption(name: string, text: string): number {
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value)) {
    throw new CoworkError('invalid_input', `--${name} must be a non-negative integer, got ${JSON.stringify(text)}`, {
      field: name,
      received: text,
    });
  }
  return value;
}

/** One of a fixed set of words. */
export function parseChoice<T extends string>(name: string, text: string, choices: readonly T[]): T {
  if (!(choices as readonly string[]).includes(text)) {
    throw new CoworkError('invalid_input', `--${name} must be one of ${choices.join(', ')}, got ${JSON.stringify(text)}`, {
      field: name,
      received: text,
      choices: [...choices],
    });
  }
  return text as T;
}

/**
 * The operator as given. The host checks its shape (`human:<name>` or `agent:<id>`); the cast only
 * hands the string over.
 */
export function operatorOption(text: string): Operator {
  return text as Operator;
}

/** Who a person at the terminal is when they do not say: `human:` and the login name, or `human:cli`. */
export function defaultOperator(io: CliIo): Operator {
  const user = io.env.USER?.trim() || io.env.USERNAME?.trim() || 'cli';
  return `human:${user}`;
}
