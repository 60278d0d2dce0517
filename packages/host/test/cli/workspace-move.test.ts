/**
 * Invariant: `cowork workspace export` then `import` moves a workspace's records between SQLite and
 * PostgreSQL, both ways, and it reads back identically: every resource's content at every
 * revision, its history, candidates, drafts and selections, the event log and the coordinator state
 * folded from it, the Inbox, conversations and people; exporting the imported store again gives the
 * same rows, line for line (a large value included, kept as a file again on SQLite). An import into
 * a store that holds records, a file from another schema version, a row naming a column the
 * table lacks and a conversation numbered with a gap are refused with invalid_input, and write nothing.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Host } from '../../src/host';
import { UserDirectory } from '../../src/identity/user-directory';
import { usePostgresServer } from '../support/postgres';
import { jsonOf, runCli, tempDir, type ErrorJson } from './cli-harness';

const dir = tempDir();
afterAll(() => dir.cleanup());
const server = usePostgresServer();

/** Runs `cowork workspace <verb> FILE` on a workspace (in a PostgreSQL database when `url` is given). */
function move(verb: 'export' | 'import', file: string, workspace: string, url?: string) {
  return runCli(['workspace', verb, file, '--workspace', workspace, ...(url ? ['--database-url', url] : []), '--json']);
}

/** Fills a SQLite workspace with one of everything a move must keep. */
async function makeSource(workspace: string): Promise<void> {
  const host = await Host.open({ workspaceDir: workspace, pollMonitors: false });
  try {
    const a = await host.resources.create({ kind: 'text', operator: 'human:ann', title: 'Notes', content: { text: 'a' } });
    let revision = 0;
    for (const text of ['b', 'c\u{1F600}', 'x'.repeat(300 * 1024)]) revision = (await host.resources.commit(a.id, { baseRevision: revision, op: { type: 'append', text }, operator: 'agent:w1' })).revision;
    await host.resources.restore(a.id, { revision: 1, baseRevision: revision, operator: 'human:ann' });
    await expect(host.resources.commit(a.id, { baseRevision: 0, op: { type: 'append', text: 'late' }, operator: 'agent:w2', idempotencyKey: 'k1' })).rejects.toMatchObject({ code: 'revision_conflict' });
    const b = await host.resources.create({ kind: 'text', operator: 'human:bo' });
    const draft = await host.resources.createDraft(b.id, 'agent:sub');
    await host.resources.editDraft(draft.id, { type: 'append', text: 'drafted' }, 'agent:sub');
    await host.resources.proposeDraft(draft.id, 'agent:sub');
    await host.resources.setSelection(b.id, 'human:bo', { from: 0, to: 1 });
    await host.coordinator.record({ type: 'task.created', data: { taskId: 't1', request: 'move me' } });
    await host.store.transaction(async (tx) => {
      for (const id of ['m1', 'm2']) await tx.inbox.insert({ messageId: id, taskId: 't1', recipient: 'main', sender: 'user', kind: 'user', body: { text: id }, createdAt: 't' });
      await tx.inbox.consume('m1', 't');
      await tx.conversation.append({ taskId: 't1', agentId: 'main', turn: 1, message: { role: 'user', content: 'm1' }, sourceMessageId: 'm1', createdAt: 't' });
    });
    await new UserDirectory(host.store).add('cy', 'viewer');
  } finally {
    await host.close();
  }
}

/** Everything a host reads back from a workspace, for comparing two stores. */
async function readBack(workspace: string, databaseUrl?: string): Promise<unknown> {
  const host = await Host.open({ workspaceDir: workspace, databaseUrl, pollMonitors: false });
  try {
    const resources = [];
    for (const resource of await host.resources.list()) {
      const contents = [];
      for (let r = 0; r <= resource.revision; r++) contents.push(await host.resources.contentAt(resource.id, r));
      resources.push({
        resource,
        contents,
        history: await host.resources.history(resource.id),
        candidates: await host.resources.listCandidates(resource.id),
        selections: await host.resources.listSelections(resource.id),
      });
    }
    const records = await host.store.read(async (tx) => ({
      events: await tx.events.list(0),
      inbox: [await tx.inbox.get('m1'), await tx.inbox.get('m2')],
      conversation: await tx.conversation.list('t1', 'main'),
      users: await tx.users.list(),
    }));
    return { resources, records, state: host.coordinator.current };
  } finally {
    await host.close();
  }
}

const rowsOf = (file: string): string[] => readFileSync(file, 'utf8').split('\n').slice(1);

describe('cowork workspace export and import', () => {
  it('moves a workspace from SQLite to PostgreSQL and back, reading back identically', async () => {
    const source = join(dir.path, 'source');
    await makeSource(source);
    const dump = join(dir.path, 'source.jsonl');
    const exported = await move('export', dump, source);
    expect(exported.code).toBe(0);
    expect(jsonOf(exported)).toMatchObject({ schemaVersion: expect.any(Number), rows: rowsOf(dump).length - 1 });

    const url = await server().createDatabase();
    const moved = join(dir.path, 'moved');
    expect((await move('import', dump, moved, url)).code).toBe(0);
    const expected = await readBack(source);
    expect(await readBack(moved, url)).toEqual(expected);
    // The imported store exports the same rows, line for line.
    const again = join(dir.path, 'moved.jsonl');
    expect((await move('export', again, moved, url)).code).toBe(0);
    expect(rowsOf(again)).toEqual(rowsOf(dump));
    // New records continue the moved numbering: the Inbox's next message comes after the imported ones.
    const host = await Host.open({ workspaceDir: moved, databaseUrl: url, pollMonitors: false });
    try {
      await host.store.transaction((tx) => tx.inbox.insert({ messageId: 'm3', taskId: 't1', recipient: 'main', sender: 'user', kind: 'user', body: null, createdAt: 't' }));
      expect((await host.store.read((tx) => tx.inbox.pending('t1'))).map((m) => [m.messageId, m.seq])).toEqual([['m2', 2], ['m3', 3]]);
    } finally {
      await host.close();
    }

    // And back into a fresh SQLite workspace: the large value is a file there again.
    const back = join(dir.path, 'back');
    expect((await move('import', again, back)).code).toBe(0);
    expect(await readBack(back)).toEqual(expected);
    expect(readdirSync(join(back, 'values')).length).toBeGreaterThan(0);
    const third = join(dir.path, 'back.jsonl');
    expect((await move('export', third, back)).code).toBe(0);
    expect(rowsOf(third)).toEqual(rowsOf(dump));
  });

  it('refuses a store that holds records, another schema version, unknown columns and a gapped conversation, writing nothing', async () => {
    const source = join(dir.path, 'refusals');
    await makeSource(source);
    const dump = join(dir.path, 'refusals.jsonl');
    expect((await move('export', dump, source)).code).toBe(0);
    const refusal = async (file: string, url: string): Promise<ErrorJson['error']> => {
      const result = await move('import', file, join(dir.path, 'target'), url);
      expect(result.code).toBe(2);
      return jsonOf<ErrorJson>(result).error;
    };
    const full = await server().createDatabase();
    expect((await move('import', dump, join(dir.path, 'target'), full)).code).toBe(0);
    expect(await refusal(dump, full)).toMatchObject({ code: 'invalid_input', table: 'resources' });

    const lines = readFileSync(dump, 'utf8').split('\n');
    const header = JSON.parse(lines[0]!) as { schemaVersion: number };
    const newer = join(dir.path, 'newer.jsonl');
    writeFileSync(newer, [JSON.stringify({ ...header, schemaVersion: header.schemaVersion + 1 }), ...lines.slice(1)].join('\n'));
    const empty = await server().createDatabase();
    expect(await refusal(newer, empty)).toMatchObject({ code: 'invalid_input', schemaVersion: header.schemaVersion + 1 });
    const crafted = join(dir.path, 'crafted.jsonl');
    const row = JSON.parse(lines[1]!) as { table: string; row: Record<string, unknown> };
    writeFileSync(crafted, [lines[0], JSON.stringify({ table: row.table, row: { ...row.row, 'id) VALUES (1); DROP TABLE users; --': 1 } }), ...lines.slice(2)].join('\n'));
    expect(await refusal(crafted, empty)).toMatchObject({ code: 'invalid_input', table: row.table });
    // A conversation numbered with a gap: the context loader counts an agent's records by their seqs.
    const gap = join(dir.path, 'gap.jsonl');
    const gapped = lines.map((line, i) => {
      if (i === 0 || line === '') return line;
      const parsed = JSON.parse(line) as { table: string; row: Record<string, unknown> };
      return parsed.table === 'conversation' ? JSON.stringify({ table: 'conversation', row: { ...parsed.row, seq: 2 } }) : line;
    });
    writeFileSync(gap, gapped.join('\n'));
    expect(await refusal(gap, empty)).toMatchObject({ code: 'invalid_input', table: 'conversation', column: 'seq' });
    // Nothing was written by the refused imports.
    expect(jsonOf(await runCli(['resources', 'list', '--workspace', join(dir.path, 'target'), '--database-url', empty, '--json']))).toEqual({ resources: [] });
    expect(existsSync(join(dir.path, 'target', 'cowork.db'))).toBe(false);
  });
});
