/**
 * Invariant: unless told otherwise, the host's own database connection runs in WAL mode with
 * `synchronous=FULL`, so the WAL is fsynced before a commit is acknowledged and the commit
 * survives power loss. The SIGKILL test cannot show this: a killed process leaves its writes in the
 * OS page cache, so it passes even with `synchronous=OFF`.
 *
 * `synchronous` is a per-connection setting that no other connection can observe, so this test
 * reads it from the store's own connection (a private field). If that field moves, the test fails
 * loudly rather than passing without looking.
 */
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { join } from 'node:path';
import { Host } from '../../src/host';
import { DATABASE_FILE } from '../../src/store';
import { tempDir } from '../support/temp-host';

/** SQLite's numbers for `PRAGMA synchronous`. */
const SYNCHRONOUS = { OFF: 0, NORMAL: 1, FULL: 2, EXTRA: 3 } as const;

describe('durability settings of the store connection', () => {
  const workspace = tempDir('cowork-sync-');
  afterAll(() => workspace.cleanup());

  it('uses synchronous=FULL in WAL mode by default, also after commits and on reopening', async () => {
    const dir = join(workspace.path, 'default');
    for (let open = 0; open < 2; open += 1) {
      const host = await Host.open({ workspaceDir: dir });
      try {
        const r = await host.resources.create({ kind: 'text', operator: 'human:tester' });
        await host.resources.commit(r.id, { baseRevision: 0, op: { type: 'append', text: 'x' }, operator: 'human:tester' });
        const db = connectionOf(host);
        expect(db.pragma('synchronous', { simple: true })).toBe(SYNCHRONOUS.FULL);
        expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
        expect(host.store.description).toContain('synchronous=FULL');
      } finally {
        await host.close();
      }
    }
  });

  it('uses NORMAL only when asked to, which shows the check above can tell them apart', async () => {
    const host = await Host.open({ workspaceDir: join(workspace.path, 'normal'), synchronous: 'NORMAL' });
    try {
      expect(connectionOf(host).pragma('synchronous', { simple: true })).toBe(SYNCHRONOUS.NORMAL);
      expect(host.store.description).toContain('synchronous=NORMAL');
    } finally {
      await host.close();
    }
  });

  it('leaves the database file in WAL mode for every later connection', async () => {
    const dir = join(workspace.path, 'file');
    const host = await Host.open({ workspaceDir: dir });
    await host.close();
    // journal_mode=WAL, unlike synchronous, is stored in the file: a fresh connection sees it.
    const db = new BetterSqlite3(join(dir, DATABASE_FILE), { readonly: true });
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      db.close();
    }
  });
});

/** The store's own better-sqlite3 connection. */
function connectionOf(host: Host): Database {
  const db = (host.store as unknown as { db?: unknown }).db;
  expect(db).toBeInstanceOf(BetterSqlite3);
  return db as Database;
}
