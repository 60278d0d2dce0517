/**
 * Invariant: a task's published results are listed, described and downloaded over HTTP with the
 * exact bytes, their media type and an attachment name; a person publishes as themselves, a viewer
 * cannot; the task's live clients see each new publication.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { taskPaths } from '../../src/agents/task-files';
import { body, errorCode, startTestServer, TestClient, type TestServer } from './harness';

let t: TestServer;
let wsUrl: string;
const tokens: Record<string, string> = {};
const taskId = 'task_pub';

beforeAll(async () => {
  t = await startTestServer({ port: 0 });
  wsUrl = await t.listen();
  for (const [name, role] of [['ann', 'editor'], ['vic', 'viewer']] as const) {
    tokens[name] = body<{ token: string }>(await t.request({ method: 'POST', url: '/api/users', payload: { name, role } })).token;
  }
  await t.host.coordinator.record({ type: 'task.created', data: { taskId, request: 'deliver' } });
});
afterAll(() => t.dispose());

const as = (name: string): { authorization: string } => ({ authorization: `Bearer ${tokens[name]}` });

it('publishes an export as the person, lists it, and downloads the same bytes after the resource moved on', async () => {
  const doc = await t.host.resources.create({ kind: 'text', content: { text: 'héllo' }, operator: 'human:ann' });
  const url = `/api/tasks/${taskId}/published`;
  const byViewer = await t.request({ method: 'POST', url, payload: { resourceId: doc.id, format: 'txt', revision: 0 }, headers: as('vic') });
  expect([byViewer.statusCode, errorCode(byViewer)]).toEqual([403, 'forbidden']);

  const created = await t.request({ method: 'POST', url, payload: { resourceId: doc.id, format: 'txt', revision: 0, idempotencyKey: 'once' }, headers: as('ann') });
  expect(created.statusCode).toBe(201);
  const manifest = body<{ id: string; operator: string; revision: number; sha256: string; fileName: string }>(created);
  expect(manifest).toMatchObject({ taskId, operator: 'human:ann', revision: 0, commit: null, source: { type: 'export', resourceId: doc.id, format: 'txt', revision: 0 } });
  const repeated = await t.request({ method: 'POST', url, payload: { resourceId: doc.id, format: 'txt', revision: 0, idempotencyKey: 'once' }, headers: as('ann') });
  expect(body<{ id: string }>(repeated).id).toBe(manifest.id);

  await t.host.resources.commit(doc.id, { baseRevision: 0, op: { type: 'set', text: 'changed' }, operator: 'human:ann' });

  expect(body<{ published: { id: string }[] }>(await t.request({ method: 'GET', url, headers: as('vic') })).published.map((p) => p.id)).toEqual([manifest.id]);
  expect(body(await t.request({ method: 'GET', url: `/api/published/${manifest.id}`, headers: as('vic') }))).toEqual(manifest);
  const download = await t.request({ method: 'GET', url: `/api/published/${manifest.id}/download`, headers: as('vic') });
  expect(download.statusCode).toBe(200);
  expect(download.rawPayload.equals(Buffer.from('héllo'))).toBe(true);
  expect(download.headers['content-type']).toBe('text/plain; charset=utf-8');
  expect(download.headers['content-disposition']).toBe(`attachment; filename="${manifest.fileName}"; filename*=UTF-8''${manifest.fileName}`);
  expect(download.headers['x-cowork-sha256']).toBe(manifest.sha256);
});

it('refuses bad input with clear codes, and tells the task subscribers of a new publication', async () => {
  const url = `/api/tasks/${taskId}/published`;
  const doc = await t.host.resources.create({ kind: 'text', content: { text: 'x' }, operator: 'human:ann' });
  expect(errorCode(await t.request({ method: 'POST', url, payload: { resourceId: doc.id, format: 'txt', revision: 7 }, headers: as('ann') }))).toBe('not_found');
  expect(errorCode(await t.request({ method: 'POST', url, payload: { file: '../../../cowork.db' }, headers: as('ann') }))).toBe('invalid_input');
  expect(errorCode(await t.request({ method: 'POST', url, payload: { file: 'a.txt', resourceId: doc.id }, headers: as('ann') }))).toBe('invalid_input');
  expect(errorCode(await t.request({ method: 'POST', url: '/api/tasks/task_nope/published', payload: { file: 'a.txt' }, headers: as('ann') }))).toBe('not_found');
  expect(errorCode(await t.request({ method: 'GET', url: '/api/published/pub_nope/download' }))).toBe('not_found');

  writeFileSync(join(taskPaths(t.host.workspaceDir, taskId).work, 'notes.md'), '# notes\n');
  const vic = await TestClient.connect(wsUrl, as('vic'));
  try {
    vic.send({ type: 'subscribe_task', taskId, requestId: 's' });
    await vic.next('task_subscribed', 's');
    const created = body<{ id: string }>(await t.request({ method: 'POST', url, payload: { file: 'notes.md' }, headers: as('ann') }));
    await vic.until(
      (ms) => ms.some((m) => m.type === 'task_event' && (m.event as { type: string; publication?: { id?: string } }).publication?.id === created.id),
      'published event',
    );
    const download = await t.request({ method: 'GET', url: `/api/published/${created.id}/download` });
    expect(download.body).toBe('# notes\n');
    expect(download.headers['content-type']).toBe('text/markdown; charset=utf-8');
  } finally {
    vic.socket.close();
  }
});
