import { CoworkError, isCoworkError, type Json, type ToolResult } from '@cowork/host';

/**
 * Runs a tool body the way the host's own tools do: its value is the result; a coded error (an
 * unknown resource, LibreOffice missing or stuck) becomes an `isError` result the model can read and
 * act on; anything else propagates, and the host reports it as the plugin's failure.
 */
export async function toolResult(fn: () => Promise<Json>): Promise<ToolResult> {
  try {
    return { content: await fn() };
  } catch (error) {
    if (isCoworkError(error)) return { content: error.toJSON() as unknown as Json, isError: true };
    throw error;
  }
}

/** A tool input that names something the tool cannot work on. */
export function invalidInput(message: string, details: Record<string, Json> = {}): CoworkError {
  return new CoworkError('invalid_input', message, details);
}
