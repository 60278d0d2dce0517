import type { Operator } from '../store/records';

/**
 * What the MCP server needs of the task runner. The runner lives in the server layer (above this
 * one), so the edges that serve MCP (the `/mcp` route, `cowork mcp serve`) pass one in: the same
 * runner the HTTP task routes call.
 */
export interface McpTaskPort {
  /** Records the task and starts Main in the background; resolves with its id. */
  start(request: string, maxTokens: number | undefined, from: Operator): Promise<string>;
  /** A message from the outside agent to Main; a waiting task runs again. Resolves with the message id. */
  post(taskId: string, text: string, from: Operator): Promise<string>;
  /** The task's state as `GET /api/tasks/:id` answers it. */
  read(taskId: string): Promise<Record<string, unknown>>;
}
