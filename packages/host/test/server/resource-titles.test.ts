/**
 * Invariants of resource titles: a title given at creation (HTTP, import) is stored trimmed and
 * read back everywhere the resource is; a blank, overlong or multi-line title is refused and
 * creates nothing; the list says who made each resource's newest revision; and a workspace from
 * before titles (schema 10) opens with its resources untitled.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { migrate, MIGRATIONS } from '../../src/store/sqlite/migrations';
import { boardPlugin } from '../support/board-kind';
import { Host } from '../../src/host';
import { tempDir } from '../support/temp-host';
import { body, errorCode, startTestServer, type TestServer } from './harness';

let t: TestServer;
afterEach(() => t?.dispose());

type Listed = { id: string; title?: string; updatedBy: string; revision: number };

it('creates with a title, lists it with who changed it last, and refuses a bad title', async () => {
  t = await startTestServer({}, { plugins: [boardPlugin] });
  const created = await t.request({ method: 'POST', url: '/api/resources', payload: { kind: 'text', title: '  Launch plan ', operator: 'human:ann' } });
  expect(created.statusCode).toBe(201);
  const { id, title } = body<Listed>(created);
  expect(title).toBe('Launch plan');
  expect((await t.host.resources.get(id)).title).toBe('Launch plan');
  const untitled = await t.host.resources.create({ kind: 'text', operator: 'human:ann' });
  expect('title' in untitled).toBe(false);
  await t.host.resources.commit(id, { baseRevision: 0, op: { type: 'append', text: 'x' }, operator: 'agent:a1' });
  const { resources } = body<{ resources: Listed[] }>(await t.request({ method: 'GET', url: '/api/resources' }));
  expect(resources.map((r) => [r.id, r.title, r.updatedBy, r.revision])).toEqual([
    [id, 'Launch plan', 'agent:a1', 1],
    [untitled.id, undefined, 'human:ann', 0],
  ]);
  for (const bad of ['   ', 'two\nlines', 'x'.repeat(201)]) {
    const refused = await t.request({ method: 'POST', url: '/api/resources', payload: { kind: 'text', title: bad } });
    expect([refused.statusCode, errorCode(refused)]).toEqual([400, 'invalid_input']);
  }
  expect(await t.host.resources.list()).toHaveLength(2);
});

it('imports with a title', async () => {
  t = await startTestServer({}, { plugins: [boardPlugin] });
  const file = JSON.stringify({ title: 'Board', width: 10, sizes: [], cards: [] });
  const imported = await t.request({ method: 'POST', url: '/api/resources/import?kind=test.board&fileName=q3.board&title=Q3%20board', headers: { 'content-type': 'application/octet-stream' }, payload: file });
  expect(imported.statusCode).toBe(201);
  expect(body<Listed>(imported).title).toBe('Q3 board');
});

it('opens a workspace from before titles, its resources untitled', async () => {
  const dir = tempDir();
  try {
    const db = new Database(join(dir.path, 'cowork.db'));
    migrate(db, MIGRATIONS.filter((m) => m.version <= 10));
    db.prepare("INSERT INTO resources (id, kind, revision, content, created_at, updated_at) VALUES ('res_old', 'text', 0, '{\"text\":\"\"}', 'now', 'now')").run();
    db.prepare("INSERT INTO revisions (resource_id, revision, action, op, operator, created_at, snapshot) VALUES ('res_old', 0, 'create', 'null', 'human:ann', 'now', '{\"text\":\"\"}')").run();
    db.close();
    const host = await Host.open({ workspaceDir: dir.path });
    try {
      const old = await host.resources.get('res_old');
      expect(old.id).toBe('res_old');
      expect('title' in old).toBe(false);
      expect((await host.resources.create({ kind: 'text', title: 'New', operator: 'human:ann' })).title).toBe('New');
    } finally {
      await host.close();
    }
  } finally {
    dir.cleanup();
  }
});
