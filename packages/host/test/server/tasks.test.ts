/**
 * Invariant: a task started over HTTP runs in the background (202 at once) and its progress
 * (turns, tool calls, delegation, Inbox posts, state changes) streams to live clients; its state
 * (subagents, Inbox, gate) and log are readable; a person's message wakes a waiting task; and
 * without a model the task routes read but refuse to start work with `model_not_configured`.
 */
import { OpenAiCompatibleProvider } from '../../src/models/openai-provider';
import type { WireChatRequest } from '../../src/models/wire';
import { reply, startScriptedModelServer, type ScriptStep, type ScriptedModelServer } from '../../src/testkit/scripted-model-server';
import { caller, texts } from '../agents/runtime-harness';
import { body, errorCode, startTestServer, TestClient, type Message, type TestServer } from './harness';

/** Main delegates once, asks the person, and finishes once the person answered. */
function script(released: Promise<void>): (request: WireChatRequest) => Promise<ScriptStep> {
  return async (request) => {
    await released;
    const who = caller(request);
    if (who !== 'main') return reply.toolCalls([{ name: 'submit_result', arguments: { result: `outline from ${who}` } }]);
    const all = texts(request).join('\n');
    if (all.includes('just wait')) return reply.text('waiting for you');
    if (!request.messages.some((m) => m.role === 'tool')) return reply.toolCalls([{ name: 'delegate', arguments: { assignment: 'outline the deck', mode: 'sync', agent: 'alpha' } }]);
    if (!all.includes('looks good')) return reply.text('Here is the outline. Shall I finish?');
    return reply.toolCalls([{ name: 'finish', arguments: { summary: 'deck planned' } }]);
  };
}

describe('with a model', () => {
  let t: TestServer;
  let model: ScriptedModelServer;
  let release: () => void;
  let url: string;
  beforeEach(async () => {
    const released = new Promise<void>((resolve) => (release = resolve));
    model = await startScriptedModelServer(script(released));
    const provider = new OpenAiCompatibleProvider({ baseUrl: model.baseUrl, model: 'scripted', maxRetries: 0 });
    t = await startTestServer({ port: 0, provider, runtime: { maxOutputTokens: 500 } });
    url = await t.listen();
  });
  afterEach(async () => {
    release();
    await t.dispose();
    await model.close();
  });

  const events = (client: TestClient, taskId: string): Message[] =>
    client.messages.filter((m) => m.type === 'task_event' && m.taskId === taskId).map((m) => m.event as Message);
  const reached = (client: TestClient, taskId: string, status: string): Promise<void> =>
    client.until((ms) => ms.some((m) => m.type === 'task_event' && m.taskId === taskId && (m.event as Message).type === 'task_state' && (m.event as Message).status === status), `task ${status}`);

  it('runs a task in the background, streams its events, and wakes it with a message', async () => {
    const started = await t.request({ method: 'POST', url: '/api/tasks', payload: { request: 'plan the deck' } });
    expect(started.statusCode).toBe(202);
    const { taskId } = body<{ taskId: string }>(started);

    const client = await TestClient.connect(url);
    client.send({ type: 'subscribe_task', taskId, requestId: 't1' });
    expect(await client.next('task_subscribed', 't1')).toMatchObject({ taskId });
    release();
    await reached(client, taskId, 'waiting');

    const seen = events(client, taskId);
    expect(seen).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'turn', agentId: 'main' }),
        expect.objectContaining({ type: 'tool', agentId: 'main', name: 'delegate' }),
        expect.objectContaining({ type: 'subagent_started', mode: 'sync' }),
        expect.objectContaining({ type: 'subagent_finished', outcome: 'done' }),
        expect.objectContaining({ type: 'record', recordType: 'assignment.requested' }),
      ]),
    );

    const state = body<Record<string, unknown>>(
      await t.request({ method: 'GET', url: `/api/tasks/${taskId}` }),
    );
    expect(state).toMatchObject({ task: { status: 'waiting' }, running: false, assignments: [{ status: 'done' }], inbox: [], jobs: [], monitors: [], gate: [] });
    const log = body<{ agentId: string; entries: { message: { role: string; content: unknown } }[] }>(await t.request({ method: 'GET', url: `/api/tasks/${taskId}/log` }));
    expect(log.agentId).toBe('main');
    expect(log.entries[0]!.message).toMatchObject({ role: 'user' });
    expect(log.entries.some((e) => e.message.role === 'assistant' && e.message.content === 'Here is the outline. Shall I finish?')).toBe(true);
    const listed = body<{ tasks: { id: string }[] }>(await t.request({ method: 'GET', url: '/api/tasks' }));
    expect(listed.tasks.map((task) => task.id)).toEqual([taskId]);

    const posted = await t.request({ method: 'POST', url: `/api/tasks/${taskId}/messages`, payload: { text: 'looks good' } });
    expect(posted.statusCode).toBe(202);
    await reached(client, taskId, 'done');
    expect(events(client, taskId)).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'inbox_posted', kind: 'user', recipient: 'main' })]));

    const late = await t.request({ method: 'POST', url: `/api/tasks/${taskId}/messages`, payload: { text: 'one more thing' } });
    expect([late.statusCode, errorCode(late)]).toEqual([409, 'invalid_transition']);
    await client.close();
  });

  it('cancels a task', async () => {
    release();
    const { taskId } = body<{ taskId: string }>(await t.request({ method: 'POST', url: '/api/tasks', payload: { request: 'just wait' } }));
    const cancelled = await t.request({ method: 'POST', url: `/api/tasks/${taskId}/cancel` });
    expect(cancelled.statusCode).toBe(202);
    expect(body(await t.request({ method: 'GET', url: `/api/tasks/${taskId}` }))).toMatchObject({ task: { status: 'cancelled' }, running: false });
  });

  it('400 for a task without a request, 404 for a message to an unknown task', async () => {
    const empty = await t.request({ method: 'POST', url: '/api/tasks', payload: { request: '' } });
    expect([empty.statusCode, errorCode(empty)]).toEqual([400, 'invalid_input']);
    const unknown = await t.request({ method: 'POST', url: '/api/tasks/task_nope/messages', payload: { text: 'hi' } });
    expect([unknown.statusCode, errorCode(unknown)]).toEqual([404, 'not_found']);
  });

  it("404 for a task id that names a property of every object (the tasks map's prototype is no task)", async () => {
    for (const request of [
      { method: 'GET' as const, url: '/api/tasks/constructor' },
      { method: 'GET' as const, url: '/api/tasks/constructor/log' },
      { method: 'POST' as const, url: '/api/tasks/toString/messages', payload: { text: 'hi' } },
    ]) {
      const response = await t.request(request);
      expect([request.url, response.statusCode, errorCode(response)]).toEqual([request.url, 404, 'not_found']);
    }
    expect(t.errors).toEqual([]);
  });
});

describe('without a model', () => {
  let t: TestServer;
  beforeEach(async () => {
    t = await startTestServer();
  });
  afterEach(() => t.dispose());

  it('reads tasks but refuses to start or message one with model_not_configured', async () => {
    expect(body(await t.request({ method: 'GET', url: '/api/tasks' }))).toEqual({ tasks: [] });
    const start = await t.request({ method: 'POST', url: '/api/tasks', payload: { request: 'do it' } });
    expect([start.statusCode, errorCode(start)]).toEqual([400, 'model_not_configured']);
    const message = await t.request({ method: 'POST', url: '/api/tasks/task_x/messages', payload: { text: 'hi' } });
    expect([message.statusCode, errorCode(message)]).toEqual([400, 'model_not_configured']);
    expect(body(await t.request({ method: 'GET', url: '/api/health' }))).toMatchObject({ tasks: false });
  });
});
