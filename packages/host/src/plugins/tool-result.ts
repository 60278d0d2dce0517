import { asJson } from '../util/json';
import { isCoworkError } from '../errors';
import type { Json } from '../store/records';
import type { ToolResult } from './types';

/**
 * Runs a tool body: its value is the result; a coded error becomes a result the model can read and
 * act on (`isError`), as a failing tool should; anything else propagates to the loop, which reports
 * it as the tool's failure.
 */
export async function asToolResult(fn: () => Promise<Json>): Promise<ToolResult> {
  try {
    return { content: await fn() };
  } catch (error) {
    if (isCoworkError(error)) return { content: asJson(error.toJSON()), isError: true };
    throw error;
  }
}
