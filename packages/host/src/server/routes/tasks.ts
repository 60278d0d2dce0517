import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context';
import { writingOperator } from '../../identity/principal';
import { IdParams, Open } from '../schemas';
import { listTasks, taskLog } from '../../agents/task-view';
import { taskResponse } from '../task-views';

const StartBody = Type.Object(
  { request: Type.String({ minLength: 1, maxLength: 1_000_000 }), maxTokens: Type.Optional(Type.Integer({ minimum: 1 })) },
  { additionalProperties: false },
);
type StartBody = Static<typeof StartBody>;
const MessageBody = Type.Object(
  { text: Type.String({ minLength: 1, maxLength: 1_000_000 }), messageId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) },
  { additionalProperties: false },
);
type MessageBody = Static<typeof MessageBody>;
const LogQuery = Type.Object(
  { agent: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'main (default) or a subagent id' })), after: Type.Optional(Type.Integer({ minimum: 0 })) },
  { additionalProperties: false },
);
type LogQuery = Static<typeof LogQuery>;

/**
 * Tasks: start one (it runs in the background; follow it over the WebSocket), talk to it, read its
 * state and log. Starting and messaging need a model (`model_not_configured` otherwise); reading
 * works from the durable records alone.
 */
export function registerTaskRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const tags = ['tasks'];

  app.get(
    '/api/tasks',
    { schema: { summary: 'Every task of the workspace, oldest first', tags, response: { 200: Type.Object({ tasks: Type.Array(Open()) }) } } },
    async () => ({ tasks: await listTasks(ctx.host) }),
  );

  app.post<{ Body: StartBody }>(
    '/api/tasks',
    {
      schema: {
        summary: "Start a task with a person's request; it runs in the background",
        tags,
        body: StartBody,
        response: { 202: Type.Object({ taskId: Type.String() }) },
      },
    },
    async (request, reply) => {
      const taskId = await ctx.tasks.start(request.body.request, request.body.maxTokens, await writingOperator(request.principal, undefined, ctx.defaultOperator, ctx.users));
      return reply.code(202).send({ taskId });
    },
  );

  app.get<{ Params: IdParams }>(
    '/api/tasks/:id',
    {
      schema: {
        summary: "A task's state: status, subagents, pending Inbox, jobs, monitors, and the completion gate",
        tags,
        params: IdParams,
        response: { 200: Open({ task: Open(), running: Type.Boolean(), assignments: Type.Array(Open()), inbox: Type.Array(Open()), jobs: Type.Array(Open()), monitors: Type.Array(Open()), gate: Type.Array(Open()) }) },
      },
    },
    async (request) => taskResponse(ctx.host, ctx.tasks, request.params.id),
  );

  app.post<{ Params: IdParams; Body: MessageBody }>(
    '/api/tasks/:id/messages',
    {
      schema: {
        summary: 'A message from the person to Main: delivered at its next turn boundary; a waiting task runs again',
        tags,
        params: IdParams,
        body: MessageBody,
        errors: [409],
        response: { 202: Type.Object({ messageId: Type.String() }) },
      },
    },
    async (request, reply) => {
      const messageId = await ctx.tasks.post(request.params.id, request.body.text, request.body.messageId, await writingOperator(request.principal, undefined, ctx.defaultOperator, ctx.users));
      return reply.code(202).send({ messageId });
    },
  );

  app.post<{ Params: IdParams }>(
    '/api/tasks/:id/cancel',
    { schema: { summary: 'Cancel a task: its Main loop and subagents stop; finished work stays', tags, params: IdParams, response: { 202: Type.Object({ taskId: Type.String() }) } } },
    async (request, reply) => {
      await ctx.tasks.cancel(request.params.id);
      return reply.code(202).send({ taskId: request.params.id });
    },
  );

  app.get<{ Params: IdParams; Querystring: LogQuery }>(
    '/api/tasks/:id/log',
    {
      schema: {
        summary: "An agent's full conversation log (Main's by default), oldest first",
        tags,
        params: IdParams,
        querystring: LogQuery,
        response: { 200: Type.Object({ taskId: Type.String(), agentId: Type.String(), entries: Type.Array(Open()) }) },
      },
    },
    async (request) => {
      const agentId = request.query.agent ?? 'main';
      return { taskId: request.params.id, agentId, entries: await taskLog(ctx.host, request.params.id, agentId, request.query.after) };
    },
  );
}
