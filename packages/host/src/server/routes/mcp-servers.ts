import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context';
import { requireOwner } from '../../identity/principal';
import { AnyJson } from '../schemas';

/**
 * The workspace's mounted MCP servers (`<workspace>/mcp.json`, see src/mcp-client): list, add,
 * remove, approve their tools, and answer their elicitation requests. Adding and removing edit the
 * file (a bad entry or a taken name writes nothing) and take effect at once in this host.
 */

const NameParams = Type.Object({ name: Type.String({ minLength: 1, maxLength: 64 }) });
type NameParams = Static<typeof NameParams>;
const ElicitationParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) });
type ElicitationParams = Static<typeof ElicitationParams>;

const AddBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 64, description: 'lower-case letters, digits, - or _; prefixes its tools (`name__tool`)' }),
    server: Type.Unknown({ description: 'an mcp.json entry: {"command", "args", "env"} (stdio) or {"url", "headers"} (Streamable HTTP), optionally "sampling", "timeoutMs"' }),
  },
  { additionalProperties: false },
);
type AddBody = Static<typeof AddBody>;

const ElicitationQuery = Type.Object({ taskId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) }, { additionalProperties: false });

const AnswerBody = Type.Object(
  { action: Type.Union([Type.Literal('accept'), Type.Literal('decline'), Type.Literal('cancel')]), content: Type.Optional(Type.Record(Type.String(), AnyJson)) },
  { additionalProperties: false },
);

const ServerStatus = Type.Object(
  {
    name: Type.String(),
    transport: Type.Union([Type.Literal('stdio'), Type.Literal('http')]),
    config: Type.Record(Type.String(), AnyJson),
    state: Type.String({ description: 'connecting, ready, down, closed, or unloaded (in mcp.json, not loaded by this host yet)' }),
    error: Type.Union([Type.String(), Type.Null()]),
    tools: Type.Array(Type.String()),
    held: Type.Record(Type.String(), Type.String(), { description: 'tools refused until a person approves again, with why' }),
    approvedAt: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: false },
);

const Elicitation = Type.Object(
  {
    id: Type.String(),
    server: Type.String(),
    taskId: Type.Union([Type.String(), Type.Null()]),
    message: Type.String(),
    requestedSchema: AnyJson,
    createdAt: Type.String(),
  },
  { additionalProperties: false },
);

export function registerMcpServerRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const mcp = ctx.host.mcp;
  const tags = ['mcp'];

  app.get('/api/mcp/servers', { schema: { summary: 'The mounted MCP servers, their state, tools and held tools', tags, response: { 200: Type.Object({ servers: Type.Array(ServerStatus) }) } } }, async () => ({
    servers: mcp.list(),
  }));

  app.post<{ Body: AddBody }>(
    '/api/mcp/servers',
    { schema: { summary: 'Mount an MCP server (written to mcp.json and mounted at once)', tags, body: AddBody, errors: [409], response: { 201: ServerStatus } } },
    async (request, reply) => {
      // A mounted server runs a program as the host's user: the owner's decision, not an editor's.
      requireOwner(request.principal, 'mount MCP servers');
      return reply.code(201).send(mcp.add(request.body.name, request.body.server));
    },
  );

  app.delete<{ Params: NameParams }>(
    '/api/mcp/servers/:name',
    { schema: { summary: 'Unmount an MCP server and forget its approvals', tags, params: NameParams, errors: [404], response: { 200: Type.Object({ removed: Type.String() }) } } },
    async (request) => {
      requireOwner(request.principal, 'unmount MCP servers');
      mcp.remove(request.params.name);
      return { removed: request.params.name };
    },
  );

  app.post<{ Params: NameParams }>(
    '/api/mcp/servers/:name/approve',
    { schema: { summary: "Approve the running server's tools as they are now (releases held tools)", tags, params: NameParams, errors: [404, 503], response: { 200: ServerStatus } } },
    async (request) => {
      requireOwner(request.principal, "approve an MCP server's tools");
      return mcp.approve(request.params.name);
    },
  );

  app.get<{ Querystring: Static<typeof ElicitationQuery> }>(
    '/api/mcp/elicitations',
    { schema: { summary: 'Questions MCP servers are waiting for a person to answer (all, or one task\'s)', tags, querystring: ElicitationQuery, response: { 200: Type.Object({ elicitations: Type.Array(Elicitation) }) } } },
    async (request) => ({ elicitations: mcp.pendingElicitations(request.query.taskId) }),
  );

  app.post<{ Params: ElicitationParams; Body: Static<typeof AnswerBody> }>(
    '/api/mcp/elicitations/:id',
    { schema: {
        summary: "Answer a server's question; the tool call that asked goes on",
        description: '`invalid_input` when the content does not match the requested schema, `not_found` for an unknown id, `invalid_transition` once it was answered or withdrawn; none of them change anything.',
        tags,
        params: ElicitationParams,
        body: AnswerBody,
        errors: [404, 409], response: { 200: Type.Object({ answered: Elicitation }) } } },
    async (request) => ({ answered: mcp.answerElicitation(request.params.id, request.body) }),
  );
}
