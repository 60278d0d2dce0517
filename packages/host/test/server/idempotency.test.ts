/**
 * Invariant: an idempotency key protects one request. It is scoped to what it protects (a commit's
 * resource, creation), so the same key on another resource is another request and commits; a
 * repeat of the very same request answers the first result without acting again; the same key with
 * a different request (op, operator, base, kind, content) is refused with `idempotency_key_reused`
 * and writes nothing. Never is a request acknowledged with someone else's result.
 */
import { FakeApp, scenePlugin } from '../support/fake-external-app';
import { body, errorCode, startTestServer, type TestServer } from './harness';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({}, { plugins: [scenePlugin(new FakeApp())], externalPollMs: 0 });
});
afterAll(() => t.dispose());

const post = (url: string, payload: Record<string, unknown>) => t.request({ method: 'POST', url, payload });
const createText = async (): Promise<string> => body<{ id: string }>(await post('/api/resources', { kind: 'text', operator: 'human:ann' })).id;
const append = (text: string, operator = 'human:ann', baseRevision = 0) => ({ baseRevision, op: { type: 'append', text }, operator, idempotencyKey: 'k-1' });

it('the same key on another resource is another commit, and it happens', async () => {
  const [a, b] = [await createText(), await createText()];
  expect(body(await post(`/api/resources/${a}/commits`, append('to a')))).toEqual({ resourceId: a, revision: 1 });
  const second = await post(`/api/resources/${b}/commits`, append('to b'));
  expect(second.statusCode).toBe(200);
  expect(body(second)).toEqual({ resourceId: b, revision: 1 });
  expect((await t.host.resources.get(b)).content).toEqual({ text: 'to b' });
});

it('a repeat of the same commit answers its first result and commits nothing more', async () => {
  const a = await createText();
  const first = body(await post(`/api/resources/${a}/commits`, append('once')));
  const again = await post(`/api/resources/${a}/commits`, { ...append('once'), op: { text: 'once', type: 'append' } });
  expect(again.statusCode).toBe(200);
  expect(body(again)).toEqual(first);
  expect(await t.host.resources.history(a)).toHaveLength(2);
});

it.each([
  ['another op', append('something else')],
  ['another operator', append('once', 'agent:bot')],
  ['another base revision', append('once', 'human:ann', 1)],
])('the same key on the same resource with %s is refused and writes nothing', async (_name, payload) => {
  const a = await createText();
  await post(`/api/resources/${a}/commits`, append('once'));
  const candidates = await t.host.resources.listCandidates(a);
  const reused = await post(`/api/resources/${a}/commits`, payload);
  expect(reused.statusCode).toBe(422);
  expect(body(reused)).toMatchObject({ error: { code: 'idempotency_key_reused', scope: `commit ${a}`, idempotencyKey: 'k-1' } });
  expect(await t.host.resources.history(a)).toHaveLength(2);
  expect(await t.host.resources.listCandidates(a)).toEqual(candidates);
});

it('a conflicted commit repeated answers the same conflict and keeps one candidate', async () => {
  const a = await createText();
  await post(`/api/resources/${a}/commits`, { baseRevision: 0, op: { type: 'append', text: 'first' }, operator: 'human:ann' });
  const late = { ...append('late', 'agent:bot'), idempotencyKey: 'late-1' };
  const first = await post(`/api/resources/${a}/commits`, late);
  const again = await post(`/api/resources/${a}/commits`, late);
  expect([first.statusCode, again.statusCode]).toEqual([409, 409]);
  expect(body(again)).toEqual(body(first));
  expect(await t.host.resources.listCandidates(a)).toHaveLength(1);
});

it('creates: a repeat answers the first resource; another kind or content with the key is refused', async () => {
  const request = { kind: 'text', content: { text: 'hello' }, operator: 'human:ann', idempotencyKey: 'create-1' };
  const first = body<{ id: string }>(await post('/api/resources', request));
  const count = (await t.host.resources.list()).length;
  expect(body<{ id: string }>(await post('/api/resources', request)).id).toBe(first.id);
  for (const changed of [{ kind: 'scene.ext', content: undefined }, { content: { text: 'other' } }, { operator: 'human:bob' }]) {
    const reused = await post('/api/resources', { ...request, ...changed });
    expect(reused.statusCode).toBe(422);
    expect(errorCode(reused)).toBe('idempotency_key_reused');
  }
  expect((await t.host.resources.list()).length).toBe(count);
});

it('jobs and monitors: a key reused for another start is refused, a repeat returns the first', async () => {
  const key = { idempotencyKey: 'task/agent/1/call-1' };
  const job = await t.host.jobs.start({ command: 'true' }, key);
  expect((await t.host.jobs.start({ command: 'true' }, key)).id).toBe(job.id);
  await expect(t.host.jobs.start({ command: 'false' }, key)).rejects.toMatchObject({ code: 'idempotency_key_reused' });
  const owner = { taskId: 'task_1', agentId: 'main' };
  const monitor = await t.host.monitors.create({ kind: 'interval', intervalSeconds: 60 }, { owner, ...key });
  expect((await t.host.monitors.create({ kind: 'interval', intervalSeconds: 60 }, { owner, ...key })).id).toBe(monitor.id);
  await expect(t.host.monitors.create({ kind: 'interval', intervalSeconds: 120 }, { owner, ...key })).rejects.toMatchObject({ code: 'idempotency_key_reused' });
  await t.host.monitors.cancel(monitor.id);
});
