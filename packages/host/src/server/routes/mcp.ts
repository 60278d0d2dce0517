import type { FastifyInstance } from 'fastify';
import { authInfoFor, McpHostServer, McpHttpSessions, rpcError } from '../../mcp-server';
import type { ServerContext } from '../context';
import { SECURITY_HEADERS } from '../guard';
import { mcpTaskPort } from '../mcp-task-port';

/** Marks a body that was not JSON, so the route answers JSON-RPC's parse error instead of the API's. */
const NOT_JSON = Symbol('not json');

/**
 * `/mcp`: the host over MCP's Streamable HTTP transport, with sessions. The server-wide guard has
 * checked Host, Origin and the token before this runs, as for every route. The transport writes
 * the answer itself (SSE streams included), so the reply is hijacked.
 */
export async function registerMcpRoutes(app: FastifyInstance, ctx: ServerContext, onError: (error: unknown) => void): Promise<void> {
  const mcp = new McpHostServer(ctx.host, { tasks: mcpTaskPort(ctx.host, ctx.tasks), version: ctx.version, onError });
  const sessions = new McpHttpSessions(mcp);

  await app.register(async (scope) => {
    // JSON-RPC wants -32700 for a body that is not JSON; the rest of the API answers invalid_json.
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, text, done) => {
      try {
        done(null, JSON.parse(text as string));
      } catch {
        done(null, NOT_JSON);
      }
    });
    scope.addHook('onClose', async () => {
      await sessions.close();
      mcp.close();
    });
    const handler = async (request: import('fastify').FastifyRequest, reply: import('fastify').FastifyReply): Promise<void> => {
      reply.hijack();
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) reply.raw.setHeader(name, value);
      try {
        if (request.body === NOT_JSON) return rpcError(reply.raw, 400, -32700, 'parse error: the body is not JSON');
        // The guard checked this request's credential; its tools act as that principal.
        await sessions.handle(Object.assign(request.raw, { auth: authInfoFor(request.principal) }), reply.raw, request.body);
      } catch (error) {
        onError(error);
        if (!reply.raw.headersSent) rpcError(reply.raw, 500, -32603, 'internal error');
        else reply.raw.end();
      }
    };
    const schema = { summary: 'MCP (Streamable HTTP): the host\'s resources, tools, tasks and prompts for MCP clients', tags: ['mcp'] };
    // A viewer may speak MCP: each tool call checks its own writes (see mcp-server/operator.ts).
    const config = { viewer: true };
    scope.post('/mcp', { schema, config }, handler);
    scope.get('/mcp', { schema, config }, handler);
    scope.delete('/mcp', { schema, config }, handler);
  });
}
