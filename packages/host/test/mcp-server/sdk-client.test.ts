/**
 * Invariant: an outside MCP client (the SDK's `Client` over Streamable HTTP on `/mcp`) works on
 * shared resources through the same protocol as everyone else: it creates and commits, a commit
 * from a stale base is a tool error naming the current revision and the candidate its op was kept
 * as, it reads any revision by URI, it is told of every new revision of a resource it subscribed to
 * (a person's commit over HTTP included), and it hands a task to Main and reads its result.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ResourceUpdatedNotificationSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { OpenAiCompatibleProvider } from '../../src/models/openai-provider';
import type { WireChatRequest } from '../../src/models/wire';
import { reply, startScriptedModelServer, type ScriptStep, type ScriptedModelServer } from '../../src/testkit/scripted-model-server';
import { body, startTestServer, type TestServer } from '../server/harness';
import { call, connectHttp, eventually } from './mcp-client-helpers';

/** Main finishes at once with a summary, then says so. */
function script(request: WireChatRequest): ScriptStep {
  if (!request.messages.some((m) => m.role === 'tool')) return reply.toolCalls([{ name: 'finish', arguments: { summary: 'the outline is written' } }]);
  return reply.text('Done: the outline is written.');
}

let model: ScriptedModelServer;
let t: TestServer;
let client: Client;
beforeAll(async () => {
  model = await startScriptedModelServer(script);
  const provider = new OpenAiCompatibleProvider({ baseUrl: model.baseUrl, model: 'scripted', maxRetries: 0 });
  t = await startTestServer({ port: 0, provider, runtime: { maxOutputTokens: 500 } });
  client = await connectHttp(await t.listenHttp());
});
afterAll(async () => {
  await client?.close();
  await t?.dispose();
  await model?.close();
});

it('offers described tools, resources, templates, logging and the revision prompt', async () => {
  const { tools } = await client.listTools();
  const names = tools.map((tool) => tool.name);
  for (const name of ['create_resource', 'read_resource', 'commit_resource', 'list_candidates', 'accept_candidate', 'reject_candidate', 'export_resource', 'start_task', 'message_task', 'read_task']) {
    expect(names).toContain(name);
  }
  for (const tool of tools) expect(tool.description).toEqual(expect.any(String));
  expect(client.getServerCapabilities()).toMatchObject({ logging: {}, resources: { subscribe: true }, prompts: {}, tools: {} });
  const { resourceTemplates } = await client.listResourceTemplates();
  expect(resourceTemplates.map((r) => r.uriTemplate)).toEqual(['cowork://resources/{id}', 'cowork://resources/{id}/revisions/{revision}']);
  const prompt = await client.getPrompt({ name: 'revision_protocol' });
  expect(JSON.stringify(prompt.messages)).toContain('baseRevision');
});

it('creates, commits, gets a conflict it can act on, and reads any revision', async () => {
  const created = await call(client, 'create_resource', { kind: 'text' });
  expect(created.isError).toBe(false);
  const id = (created.body.resource as { id: string }).id;

  expect(await call(client, 'commit_resource', { resourceId: id, baseRevision: 0, op: { type: 'append', text: 'one' } })).toEqual({ isError: false, body: { resourceId: id, revision: 1 } });
  const stale = await call(client, 'commit_resource', { resourceId: id, baseRevision: 0, op: { type: 'append', text: 'two' } });
  expect(stale.isError).toBe(true);
  const error = stale.body.error as { code: string; currentRevision: number; candidateId: string };
  expect(error).toMatchObject({ code: 'revision_conflict', currentRevision: 1, candidateId: expect.any(String) });

  // Acting on it: the kept op is a candidate, accepted on the current revision.
  const candidates = await call(client, 'list_candidates', { resourceId: id, status: 'open' });
  expect((candidates.body.candidates as { id: string }[]).map((c) => c.id)).toEqual([error.candidateId]);
  expect(await call(client, 'accept_candidate', { candidateId: error.candidateId, baseRevision: error.currentRevision })).toEqual({ isError: false, body: { resourceId: id, revision: 2 } });

  const listed = await client.listResources();
  expect(listed.resources.map((r) => r.uri)).toContain(`cowork://resources/${id}`);
  const current = await client.readResource({ uri: `cowork://resources/${id}` });
  expect(JSON.parse((current.contents[0] as { text: string }).text)).toMatchObject({ id, kind: 'text', revision: 2 });
  const first = await client.readResource({ uri: `cowork://resources/${id}/revisions/1` });
  expect(JSON.parse((first.contents[0] as { text: string }).text)).toMatchObject({ id, revision: 1, currentRevision: 2 });
  expect((await t.host.resources.history(id)).map((r) => r.operator)).toEqual(['agent:mcp-client', 'agent:mcp-client', 'agent:mcp-client']);
});

it("reads the changes others made since a revision, leaving out the caller's own", async () => {
  const id = ((await call(client, 'create_resource', { kind: 'text', operator: 'agent:outside' })).body.resource as { id: string }).id;
  await call(client, 'commit_resource', { resourceId: id, baseRevision: 0, op: { type: 'append', text: 'mine' }, operator: 'agent:outside' });
  await t.host.resources.commit(id, { baseRevision: 1, op: { type: 'append', text: 'theirs' }, operator: 'human:ann' });
  const read = await call(client, 'read_resource', { resourceId: id, sinceRevision: 0, operator: 'agent:outside' });
  expect(read.body.resource).toMatchObject({ id, revision: 2 });
  expect((read.body.changesByOthers as { operator: string; revision: number }[]).map((c) => [c.operator, c.revision])).toEqual([['human:ann', 2]]);
});

it('notifies a subscriber of every revision, including a person committing over HTTP', async () => {
  const id = ((await call(client, 'create_resource', { kind: 'text' })).body.resource as { id: string }).id;
  const updates: string[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
  // The SDK client opens the standalone SSE stream after initialize; notifications arrive on it.
  await client.subscribeResource({ uri: `cowork://resources/${id}` });
  const committed = await t.request({ method: 'POST', url: `/api/resources/${id}/commits`, payload: { baseRevision: 0, op: { type: 'append', text: 'by hand' }, operator: 'human:ann' } });
  expect(committed.statusCode).toBe(200);
  await eventually(async () => updates.length, (n) => n >= 1, 'the update notification');
  await call(client, 'commit_resource', { resourceId: id, baseRevision: 1, op: { type: 'append', text: 'by tool' } });
  await eventually(async () => updates.length, (n) => n >= 2, 'the second update notification');
  expect(updates).toEqual([`cowork://resources/${id}`, `cowork://resources/${id}`]);

  await client.unsubscribeResource({ uri: `cowork://resources/${id}` });
  await call(client, 'commit_resource', { resourceId: id, baseRevision: 2, op: { type: 'append', text: 'unwatched' } });
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(updates).toHaveLength(2);
});

it('logs tool calls at the level the client set', async () => {
  const logs: string[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params.level));
  await client.setLoggingLevel('warning');
  await call(client, 'list_resources', {});
  await call(client, 'read_resource', { resourceId: 'no-such-resource' });
  await eventually(async () => logs, (l) => l.includes('warning'), 'the warning');
  expect(logs).not.toContain('info');
});

it('starts a task, and reads its state and result', async () => {
  const started = await call(client, 'start_task', { request: 'write the outline' });
  expect(started.isError).toBe(false);
  const taskId = started.body.taskId as string;
  const done = await eventually(
    async () => (await call(client, 'read_task', { taskId })).body,
    (state) => (state.result as { status: string }).status === 'done' && state.running === false,
    'the task to finish',
  );
  expect(done.result).toMatchObject({ status: 'done', summary: 'the outline is written' });
  // The same task over HTTP.
  expect(body(await t.request({ method: 'GET', url: `/api/tasks/${taskId}` }))).toMatchObject({ task: { id: taskId, status: 'done' } });
  const sent = await call(client, 'message_task', { taskId, text: 'one more thing' });
  expect(sent).toMatchObject({ isError: true, body: { error: { code: 'invalid_transition' } } });
  expect(t.errors).toEqual([]);
});
