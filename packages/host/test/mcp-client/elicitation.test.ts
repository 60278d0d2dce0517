/**
 * server-everything's `trigger-elicitation-request` inside a task: the question reaches the person
 * (the task's Inbox, `GET /api/mcp/elicitations` on a real server), the task waits, a person answers
 * over `POST /api/mcp/elicitations/:id`, and Main's tool result carries the answer. Bad answers give
 * coded errors and change nothing; cancelling the task withdraws the question.
 */
import inject from 'light-my-request';
import { createServer, type CoworkServer } from '../../src/server/create-server';
import { reply } from '../../src/testkit/scripted-model-server';
import { EVERYTHING, lastToolResult, startMcpHarness, until, type McpHarness } from './mcp-harness';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are read loosely
type Loose = any;
const TOKEN = 'test-token-0123456789abcdef';
let h: McpHarness;
let server: CoworkServer;
let hostHeader = '';
const results: unknown[] = [];

beforeAll(async () => {
  h = await startMcpHarness(
    () => ({ everything: { command: EVERYTHING } }),
    (body, index) => {
      if (index % 2 === 1) {
        results.push(lastToolResult(body));
        return reply.toolCalls([{ name: 'finish', arguments: { summary: 'asked' } }]);
      }
      return reply.toolCalls([{ name: 'everything__trigger_elicitation_request', arguments: {} }]);
    },
  );
  server = await createServer({ host: h.host, token: TOKEN, onError: () => undefined, live: { heartbeatMs: 0 } });
  hostHeader = new URL((await server.listen()).url).host;
}, 60_000);
afterAll(async () => {
  await server?.close();
  await h?.dispose();
});

async function call(method: 'GET' | 'POST', url: string, payload?: unknown) {
  const headers: Record<string, string> = { authorization: `Bearer ${TOKEN}`, host: hostHeader };
  if (payload !== undefined) headers['content-type'] = 'application/json';
  const response = await inject(server.app.routing, { method, url, headers, ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }) });
  return { status: response.statusCode, body: JSON.parse(response.body) as Record<string, Loose> };
}

async function waitingQuestion(taskId: string) {
  let pending: Record<string, Loose>[] = [];
  await until(() => {
    pending = h.host.mcp.pendingElicitations(taskId);
    return pending.length === 1;
  });
  const listed = await call('GET', `/api/mcp/elicitations?taskId=${taskId}`);
  expect(listed.status).toBe(200);
  expect(listed.body.elicitations).toHaveLength(1);
  return listed.body.elicitations[0] as Record<string, Loose>;
}

async function inboxOf(taskId: string) {
  return (await call('GET', `/api/tasks/${taskId}`)).body.inbox as Record<string, Loose>[];
}

it('accepts an answer that matches the schema, after refusing ones that do not, and Main sees it', async () => {
  const taskId = await h.runtime.startTask('ask me');
  const run = h.runtime.runTask(taskId);
  const question = await waitingQuestion(taskId);
  expect(question).toMatchObject({ server: 'everything', taskId, message: expect.stringContaining('Please provide') });
  expect(question.requestedSchema.properties.name.type).toBe('string');
  // In the task's Inbox for the person, from the server.
  await new Promise((r) => setTimeout(r, 100));
  const inbox = await inboxOf(taskId);
  expect(inbox).toEqual(expect.arrayContaining([expect.objectContaining({ recipient: 'user', sender: 'mcp:everything', messageId: `mcp:${question.id}` })]));

  // Bad answers: coded, and nothing changes (still waiting).
  const wrongType = await call('POST', `/api/mcp/elicitations/${question.id}`, { action: 'accept', content: { name: 'Ada', check: 'yes' } });
  expect(wrongType.status).toBe(400);
  expect(wrongType.body.error.code).toBe('invalid_input');
  expect(wrongType.body.error.message).toMatch(/check must be boolean/);
  const unasked = await call('POST', `/api/mcp/elicitations/${question.id}`, { action: 'accept', content: { name: 'Ada', shoeSize: 44 } });
  expect(unasked.body.error).toMatchObject({ code: 'invalid_input', message: expect.stringMatching(/shoeSize was not asked for/) });
  const outOfRange = await call('POST', `/api/mcp/elicitations/${question.id}`, { action: 'accept', content: { integer: 1000 } });
  expect(outOfRange.body.error.code).toBe('invalid_input');
  const unknown = await call('POST', '/api/mcp/elicitations/elicit_nope', { action: 'accept', content: {} });
  expect(unknown.status).toBe(404);
  expect(unknown.body.error.code).toBe('not_found');
  expect(h.host.mcp.pendingElicitations(taskId)).toHaveLength(1);

  const answered = await call('POST', `/api/mcp/elicitations/${question.id}`, { action: 'accept', content: { name: 'Ada Lovelace', check: true, integer: 7, untitledSingleSelectEnum: 'Joey' } });
  expect(answered.status).toBe(200);
  expect(answered.body.answered.id).toBe(question.id);
  expect(await run).toEqual({ status: 'done', summary: 'asked' });
  const seen = JSON.stringify(results.at(-1));
  expect(seen).toContain('Ada Lovelace');
  expect(seen).toContain('Joey');

  const twice = await call('POST', `/api/mcp/elicitations/${question.id}`, { action: 'decline' });
  expect(twice.status).toBe(409);
  expect(twice.body.error).toMatchObject({ code: 'invalid_transition', outcome: 'accept', message: expect.stringContaining('answered (accept)') });
  expect((await call('GET', '/api/mcp/elicitations')).body.elicitations).toEqual([]);
  await new Promise((r) => setTimeout(r, 100));
  expect((await inboxOf(taskId)).filter((m) => m.sender === 'mcp:everything')).toEqual([]);
}, 60_000);

it('passes a decline back to the tool', async () => {
  const taskId = await h.runtime.startTask('ask me again');
  const run = h.runtime.runTask(taskId);
  const question = await waitingQuestion(taskId);
  const withContent = await call('POST', `/api/mcp/elicitations/${question.id}`, { action: 'decline', content: { name: 'x' } });
  expect(withContent.body.error.code).toBe('invalid_input');
  expect((await call('POST', `/api/mcp/elicitations/${question.id}`, { action: 'decline' })).status).toBe(200);
  expect(await run).toEqual({ status: 'done', summary: 'asked' });
  const seen = JSON.stringify(results.at(-1));
  expect(seen).toMatch(/decline/i);
  expect(seen).not.toContain('Ada');
}, 60_000);

it('withdraws the question when the task is cancelled while it waits', async () => {
  const taskId = await h.runtime.startTask('ask and be cancelled');
  const run = h.runtime.runTask(taskId);
  const question = await waitingQuestion(taskId);
  await h.runtime.cancelTask(taskId);
  await run.catch(() => undefined);
  await until(() => h.host.mcp.pendingElicitations().length === 0);
  expect((await call('GET', '/api/mcp/elicitations')).body.elicitations).toEqual([]);
  const late = await call('POST', `/api/mcp/elicitations/${question.id}`, { action: 'accept', content: { name: 'too late' } });
  expect(late.status).toBe(409);
  expect(late.body.error).toMatchObject({ code: 'invalid_transition', outcome: 'withdrawn' });
  await new Promise((r) => setTimeout(r, 100));
  expect((await inboxOf(taskId)).filter((m) => m.sender === 'mcp:everything')).toEqual([]);
  // The connection serves the next call.
  expect((await h.host.mcp.server('everything')!.connection.callTool('echo', { message: 'after' })).content).toEqual([{ type: 'text', text: 'Echo: after' }]);
}, 60_000);
