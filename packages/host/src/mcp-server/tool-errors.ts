import { toCoworkError } from '../errors';
import type { ToolOutput } from './tool';

/**
 * A failed call as a tool error (`isError`), which the model reads and can act on, rather than a
 * protocol error, which clients hide from it (the spec's rule). The body is the host's wire error:
 * `code`, `message`, `hint` and the details (a `revision_conflict` names `currentRevision` and
 * `candidateId`).
 */
export function toolError(thrown: unknown): ToolOutput {
  const body = toCoworkError(thrown).toJSON();
  return { content: [{ type: 'text', text: JSON.stringify(body, null, 2) }], structuredContent: body, isError: true };
}
