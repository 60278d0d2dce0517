/**
 * Invariant: the recorded demo runs with no model configured, through the real runtime and
 * plugins, and always tells the same story: Main reads the demo resource and delegates, a person
 * (`human:demo-person`) commits an edit before Main's commit, Main's commit from the older revision
 * gets `revision_conflict`, and Main re-reads and commits on the new revision, so the final text
 * keeps both the person's edit and the agent's paragraph. The shipped recording is exactly what
 * `record-demo.ts` writes.
 */
import { readFileSync } from 'node:fs';
import { DEMO_RECORDING } from '../../src/server/demo/demo-provider';
import { DEMO_PARAGRAPH, demoTurns } from '../../src/server/demo/record-demo';
import { DEMO_PERSON, DEMO_PERSON_EDIT } from '../../src/server/demo/run-demo';
import { body, startTestServer, TestClient, type Message, type TestServer } from './harness';

describe('POST /api/demo without a model', () => {
  let t: TestServer;
  let url: string;
  beforeEach(async () => {
    t = await startTestServer({ port: 0 });
    url = await t.listen();
  });
  afterEach(() => t.dispose());

  it('plays the recorded task to done: delegation, a person edit, a conflict and its resolution', async () => {
    const client = await TestClient.connect(url);
    const started = await t.request({ method: 'POST', url: '/api/demo' });
    expect(started.statusCode).toBe(202);
    const { taskId, resourceId } = body<{ taskId: string; resourceId: string }>(started);
    client.send({ type: 'subscribe_task', taskId, requestId: 'd1' });
    await client.next('task_subscribed', 'd1');
    const state = body<{ task: { status: string } }>(await t.request({ method: 'GET', url: `/api/tasks/${taskId}` }));
    if (state.task.status !== 'done') {
      await client.until((ms) => ms.some((m) => m.type === 'task_event' && m.taskId === taskId && (m.event as Message).type === 'task_state' && (m.event as Message).status === 'done'), 'the demo task done');
    }
    await client.close();
    expect(t.errors).toEqual([]);

    const view = body<{ task: { status: string }; assignments: { status: string }[] }>(await t.request({ method: 'GET', url: `/api/tasks/${taskId}` }));
    expect(view.task.status).toBe('done');
    expect(view.assignments).toEqual([expect.objectContaining({ status: 'done' })]);

    const history = await t.host.resources.history(resourceId);
    expect(history.map((r) => r.operator)).toEqual([DEMO_PERSON, DEMO_PERSON, 'agent:main']);
    const conflicts = await t.host.resources.listCandidates(resourceId);
    expect(conflicts).toEqual([expect.objectContaining({ source: 'conflict', operator: 'agent:main', baseRevision: 0 })]);

    const log = body<{ entries: { message: { role: string; content: unknown } }[] }>(await t.request({ method: 'GET', url: `/api/tasks/${taskId}/log` }));
    expect(log.entries.some((e) => e.message.role === 'tool' && JSON.stringify(e.message.content).includes('revision_conflict'))).toBe(true);

    const text = ((await t.host.resources.get(resourceId)).content as { text: string }).text;
    expect(text).toContain(DEMO_PERSON_EDIT.trim());
    expect(text).toContain(DEMO_PARAGRAPH);
    expect(text.indexOf(DEMO_PERSON_EDIT.trim())).toBeLessThan(text.indexOf(DEMO_PARAGRAPH));
  });

  it('is authenticated like the other routes', async () => {
    const refused = await t.request({ method: 'POST', url: '/api/demo', headers: { authorization: undefined } });
    expect(refused.statusCode).toBe(401);
  });
});

it('the shipped recording is what record-demo.ts writes', () => {
  expect(readFileSync(DEMO_RECORDING, 'utf8')).toBe(demoTurns().map((turn) => `${JSON.stringify(turn)}\n`).join(''));
});
