import { CoworkError, type Json } from '@cowork/host';

/** A tool input that names something the tool cannot work on. */
export function invalidInput(message: string, details: Record<string, Json> = {}): CoworkError {
  return new CoworkError('invalid_input', message, details);
}
