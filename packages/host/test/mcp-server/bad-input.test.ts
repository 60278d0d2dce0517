/**
 * Invariant: bad input to `/mcp` is answered as the spec says and changes nothing: no token, a
 * foreign Host or Origin are refused before any session opens; malformed JSON is a parse error,
 * a request without a session or with an unknown one is refused; an unknown tool or prompt is a
 * protocol error, an unknown resource is "resource not found", and wrong argument types are a tool
 * error the model can read. The server stays up and the resource's revision stays where it was.
 */
import { request } from 'node:http';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { startTestServer, TOKEN, type TestServer } from '../server/harness';
import { call, connectHttp } from './mcp-client-helpers';

const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };

let t: TestServer;
let base: string;
let client: Client;
let resourceId: string;
beforeAll(async () => {
  t = await startTestServer({ port: 0 });
  base = await t.listenHttp();
  client = await connectHttp(base);
  resourceId = (await t.host.resources.create({ kind: 'text', operator: 'human:ann' })).id;
  await t.host.resources.commit(resourceId, { baseRevision: 0, op: { type: 'append', text: 'kept' }, operator: 'human:ann' });
});
afterAll(async () => {
  await client?.close();
  await t?.dispose();
});
afterEach(async () => {
  // Nothing written, nothing crashed.
  expect((await t.host.resources.get(resourceId)).revision).toBe(1);
  expect(t.errors).toEqual([]);
});

/** A raw POST to /mcp with exactly these headers (Host included) and body. */
function post(headers: Record<string, string>, payload: string): Promise<{ status: number; text: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method: 'POST', path: '/mcp', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}
const own = (): Record<string, string> => ({ host: new URL(base).host, authorization: `Bearer ${TOKEN}` });

it('refuses a request without the token, or with a wrong one, before any session opens', async () => {
  const { authorization: _, ...noToken } = own();
  expect(await post(noToken, JSON.stringify(INITIALIZE))).toMatchObject({ status: 401, text: expect.stringContaining('unauthorized') });
  expect(await post({ ...own(), authorization: 'Bearer wrong-token-0123456789' }, JSON.stringify(INITIALIZE))).toMatchObject({ status: 401 });
});

it('refuses a foreign Host or Origin (DNS rebinding, cross-site pages)', async () => {
  expect(await post({ ...own(), host: 'evil.example:80' }, JSON.stringify(INITIALIZE))).toMatchObject({ status: 403, text: expect.stringContaining('forbidden_origin') });
  expect(await post({ ...own(), origin: 'http://evil.example' }, JSON.stringify(INITIALIZE))).toMatchObject({ status: 403 });
  // The server's own origin is fine.
  expect((await post({ ...own(), origin: `http://${new URL(base).host}` }, JSON.stringify(INITIALIZE))).status).toBe(200);
});

it('answers malformed JSON-RPC with protocol errors', async () => {
  const notJson = await post(own(), '{"jsonrpc": "2.0", "id": 1, "method": ');
  expect(notJson.status).toBe(400);
  expect(JSON.parse(notJson.text)).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 }, id: null });
  // Not an initialize, and no session.
  const noSession = await post(own(), JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
  expect(noSession.status).toBe(400);
  expect(JSON.parse(noSession.text)).toMatchObject({ error: { code: -32000 } });
  const unknownSession = await post({ ...own(), 'mcp-session-id': 'no-such-session' }, JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }));
  expect(unknownSession.status).toBe(404);
  // Within a session: a body that is JSON but not JSON-RPC.
  const sessionId = client.transport && (client.transport as { sessionId?: string }).sessionId;
  const garbage = await post({ ...own(), 'mcp-session-id': sessionId!, 'mcp-protocol-version': '2025-11-25' }, JSON.stringify({ hello: 'world' }));
  expect(garbage.status).toBeGreaterThanOrEqual(400);
  expect(garbage.status).toBeLessThan(500);
  // The session still works.
  expect((await client.listTools()).tools.length).toBeGreaterThan(0);
});

it('answers an unknown tool or prompt with invalid params, and an unknown resource with resource not found', async () => {
  await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toMatchObject({ code: -32602 });
  await expect(client.getPrompt({ name: 'no_such_prompt' })).rejects.toMatchObject({ code: -32602 });
  for (const uri of ['cowork://resources/nope', `cowork://resources/${resourceId}/revisions/7`, 'file:///etc/passwd', 'cowork://resources/%E0%A4%A']) {
    const error = await client.readResource({ uri }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: -32002 });
  }
  await expect(client.subscribeResource({ uri: 'cowork://resources/nope' })).rejects.toMatchObject({ code: -32002 });
});

it('answers wrong argument types and failed calls as tool errors, committing nothing', async () => {
  const wrongType = await call(client, 'commit_resource', { resourceId, baseRevision: 'one', op: { type: 'append', text: 'x' } });
  expect(wrongType).toMatchObject({ isError: true, body: { error: { code: 'invalid_input', tool: 'commit_resource' } } });
  const extra = await call(client, 'commit_resource', { resourceId, baseRevision: 1, op: { type: 'append', text: 'x' }, sneaky: true });
  expect(extra).toMatchObject({ isError: true, body: { error: { code: 'invalid_input' } } });
  const missing = await call(client, 'commit_resource', { resourceId });
  expect(missing).toMatchObject({ isError: true, body: { error: { code: 'invalid_input' } } });
  const badOp = await call(client, 'commit_resource', { resourceId, baseRevision: 1, op: { type: 'explode' } });
  expect(badOp).toMatchObject({ isError: true, body: { error: { code: 'invalid_op' } } });
  const badOperator = await call(client, 'commit_resource', { resourceId, baseRevision: 1, op: { type: 'append', text: 'x' }, operator: 'root' });
  expect(badOperator).toMatchObject({ isError: true, body: { error: { code: 'invalid_input' } } });
  const unknownResource = await call(client, 'read_resource', { resourceId: 'nope' });
  expect(unknownResource).toMatchObject({ isError: true, body: { error: { code: 'not_found' } } });
  // Tasks need a model this server does not have.
  expect(await call(client, 'start_task', { request: 'anything' })).toMatchObject({ isError: true, body: { error: { code: 'model_not_configured' } } });
});
