import { taskLog } from '../agents/task-view';
import type { Host } from '../host';
import type { McpTaskPort } from '../mcp-server';
import type { TaskRunner } from './task-runner';
import { taskResponse } from './task-views';

/**
 * The task runner as the MCP server sees it: the calls the HTTP task routes make, and a task's
 * result (Main's summary when it finished, and its last reply, which is what a waiting task asks).
 */
export function mcpTaskPort(host: Host, runner: TaskRunner): McpTaskPort {
  return {
    start: (request, maxTokens, from) => runner.start(request, maxTokens, from),
    post: (taskId, text, from) => runner.post(taskId, text, undefined, from),
    async read(taskId) {
      const state = await taskResponse(host, runner, taskId);
      const task = state.task as { status: string; summary: string | null };
      return { ...state, result: { status: task.status, summary: task.summary, lastReply: await lastReply(host, taskId) } };
    },
  };
}

async function lastReply(host: Host, taskId: string): Promise<string | null> {
  const entries = await taskLog(host, taskId, 'main');
  for (let i = entries.length - 1; i >= 0; i--) {
    const message = entries[i]!.message as { role?: string; content?: unknown };
    if (message.role === 'assistant' && typeof message.content === 'string' && message.content !== '') return message.content;
  }
  return null;
}
