import { writingOperator } from '../identity/principal';
import { MCP_OPERATOR } from './operator';
import type { McpTaskPort } from './task-port';
import { jsonOutput, objectSchema, type McpTool } from './tool';

const TEXT = { type: 'string', minLength: 1, maxLength: 1_000_000 };
const ID = { type: 'string', minLength: 1, maxLength: 200 };

/** Handing work to Main: the same runner and views the HTTP task routes use. */
export function taskTools(tasks: McpTaskPort): McpTool[] {
  return [
    {
      name: 'start_task',
      description: "Start a task: Main (the host's agent) works on the request in the background with its subagents. Returns the taskId; follow it with read_task.",
      inputSchema: objectSchema({ request: { ...TEXT, description: 'What to do, as you would ask a person.' }, maxTokens: { type: 'integer', minimum: 1, description: 'Token budget, all agents together.' } }, ['request']),
      async run(args, call) {
        return jsonOutput({ taskId: await tasks.start(args.request as string, args.maxTokens as number | undefined, await writingOperator(call.principal, undefined, MCP_OPERATOR, call.people)) });
      },
    },
    {
      name: 'message_task',
      description: 'Send Main a message (an answer, a correction): delivered at its next turn; a task waiting for you runs again.',
      inputSchema: objectSchema({ taskId: ID, text: TEXT }, ['taskId', 'text']),
      async run(args, call) {
        return jsonOutput({ messageId: await tasks.post(args.taskId as string, args.text as string, await writingOperator(call.principal, undefined, MCP_OPERATOR, call.people)) });
      },
    },
    {
      name: 'read_task',
      description:
        "A task's state and result: status (running, waiting for you, done, failed, cancelled), Main's summary and last reply, subagents, pending Inbox, jobs, monitors and the completion gate.",
      inputSchema: objectSchema({ taskId: ID }, ['taskId']),
      async run(args) {
        return jsonOutput(await tasks.read(args.taskId as string));
      },
    },
  ];
}
