import { CoworkError } from '../errors';
import type { Json } from '../store/records';
import { errorOutcome, type AgentTool } from './agent-tool';
import type { Inbox } from './inbox';
import { defineAgentTool } from './resource-tools';
import { loadSkill } from './skills';

/** A subagent's own tools: hand in the result, message Main or a peer, load a skill. */
export function subagentTools(deps: { taskId: string; agentId: string; inbox: Inbox; workspaceDir: string; peers: () => string[] }): AgentTool[] {
  return [
    {
      spec: {
        name: 'submit_result',
        description: 'Hand your result to Main and end your assignment.',
        inputSchema: { type: 'object', properties: { result: {} }, required: ['result'], additionalProperties: false },
      },
      // A control only: the result is delegation's own write, after the turn's.
      readOnly: true,
      run: async (input) => ({ content: { submitted: true }, control: { type: 'submit', result: (input as { result: Json }).result } }),
    },
    defineAgentTool('send_message', 'Send a message to Main ("main") or to another subagent of this task.', {
      to: { type: 'string' },
      body: { type: 'string', minLength: 1 },
    }, ['to', 'body'], async (input, call) => {
      const to = String(input.to);
      if (to !== 'main' && !deps.peers().includes(to)) {
        throw new CoworkError('not_found', `no agent ${to}; you can write to main or ${deps.peers().join(', ') || 'no peers'}`);
      }
      const posted = await deps.inbox.post({ messageId: `msg:${call.idempotencyKey}`, taskId: deps.taskId, recipient: to, sender: deps.agentId, kind: 'message', body: String(input.body) });
      return { sent: true, messageId: posted.messageId };
    }),
    {
      spec: {
        name: 'load_skill',
        description: 'Load the body of a skill from the catalog in your instructions.',
        inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: false },
      },
      run: async (input) => {
        const body = loadSkill(deps.workspaceDir, String((input as { name: string }).name));
        return body === undefined ? errorOutcome('not_found', 'no such skill; use a name from the catalog') : { content: body };
      },
    },
  ];
}
