import { isCoworkError, type Json, type ToolResult } from '@cowork/host';

/** Runs a tool body: a coded error becomes a result the model can read and act on (`isError`). */
export async function toolResult(body: () => Promise<Json>): Promise<ToolResult> {
  try {
    return { content: await body() };
  } catch (error) {
    if (isCoworkError(error)) return { content: error.toJSON() as unknown as Json, isError: true };
    throw error;
  }
}
