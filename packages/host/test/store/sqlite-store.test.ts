/**
 * The SQLite store: the shared store suite (store-suite.ts), and what only SQLite has. Invariants:
 * a workspace database is WAL with synchronous=FULL unless NORMAL is asked for explicitly (a
 * mistyped mode is refused), and a `flush: 'later'` batch alone commits under NORMAL; a migration
 * added later applies on top, once; the WAL is checkpointed by a thread of its own and started
 * again before it grows far past RESTART_WAL_AT_FRAMES, and SQLite's own checkpoint comes back
 * when that thread is gone.
 */
import BetterSqlite3 from 'better-sqlite3';
import { statSync } from 'node:fs';
import type { Worker } from 'node:worker_threads';
import { migrate, MIGRATIONS, LATEST_SCHEMA_VERSION } from '../../src/store/sqlite/migrations';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store';
import { FALLBACK_AUTOCHECKPOINT_PAGES, RESTART_WAL_AT_FRAMES } from '../../src/store/sqlite/wal-checkpointer';
import { tempDir } from '../support/temp-host';
import { storeSuite, type StorePlace } from './store-suite';

const dir = tempDir();
afterAll(() => dir.cleanup());
let n = 0;
const path = (): string => `${dir.path}/db${n++}.sqlite`;

function sqlitePlace(): StorePlace {
  const file = path();
  return {
    latestVersion: LATEST_SCHEMA_VERSION,
    open: async (settings = {}) => new SqliteStore({ path: file, ...settings }),
    async sql(text) {
      const db = new BetterSqlite3(file);
      try {
        const statement = db.prepare(text);
        return statement.reader ? (statement.all() as Record<string, unknown>[]) : (statement.run(), []);
      } finally {
        db.close();
      }
    },
    async holdWriteLock() {
      const holder = new BetterSqlite3(file);
      holder.exec('BEGIN IMMEDIATE');
      return async () => {
        holder.exec('COMMIT');
        holder.close();
      };
    },
  };
}

storeSuite('SQLite', async () => sqlitePlace());

/** The store's own better-sqlite3 connection (a private field: a test that moves it fails here). */
function connection(store: SqliteStore): BetterSqlite3.Database {
  const db = (store as unknown as { db?: unknown }).db;
  expect(db).toBeInstanceOf(BetterSqlite3);
  return db as BetterSqlite3.Database;
}

describe('SQLite store (SQLite only)', () => {
  it('uses WAL and synchronous=FULL by default, NORMAL only when asked', async () => {
    const pragmas = (store: SqliteStore): Promise<[unknown, unknown]> =>
      store.read(async () => {
        const db = (store as unknown as { db: BetterSqlite3.Database }).db;
        return [db.pragma('journal_mode', { simple: true }), db.pragma('synchronous', { simple: true })];
      });
    const full = new SqliteStore({ path: path() });
    const normal = new SqliteStore({ path: path(), synchronous: 'NORMAL' });
    // SQLite reports synchronous as a number: FULL = 2, NORMAL = 1.
    expect(await pragmas(full)).toEqual(['wal', 2]);
    expect(await pragmas(normal)).toEqual(['wal', 1]);
    await full.close();
    await normal.close();
    // A mistyped mode is refused instead of silently becoming NORMAL or OFF.
    expect(() => new SqliteStore({ path: path(), synchronous: 'FUL' as never })).toThrow(expect.objectContaining({ code: 'invalid_input' }));
    expect(() => new SqliteStore({ path: path(), synchronous: 'OFF' as never })).toThrow(expect.objectContaining({ code: 'invalid_input' }));
  });

  it("commits a flush: 'later' batch alone under NORMAL, and every other under the store's mode", async () => {
    /** The synchronous mode each body's COMMIT ran under (set before BEGIN, read inside the body). */
    const modes = async (store: SqliteStore, flushes: ('now' | 'later')[]): Promise<unknown[]> =>
      Promise.all(flushes.map((flush) => store.transaction(async (tx) => (await tx.events.append({ type: flush, at: 't', data: null }), connection(store).pragma('synchronous', { simple: true })), { flush })));
    const full = new SqliteStore({ path: path() });
    const normal = new SqliteStore({ path: path(), synchronous: 'NORMAL' });
    try {
      expect(await modes(full, ['later'])).toEqual([1]);
      expect(await modes(full, ['now'])).toEqual([2]);
      expect(await modes(full, ['later', 'later'])).toEqual([1, 1]);
      // One write that waits for its flush makes the whole batch wait.
      expect(await modes(full, ['later', 'now', 'later'])).toEqual([2, 2, 2]);
      expect(await modes(full, ['later'])).toEqual([1]);
      expect(await modes(normal, ['now', 'later'])).toEqual([1, 1]);
      expect(full.groupCommitStats).toMatchObject({ batches: 5, durable: 2 });
    } finally {
      await full.close();
      await normal.close();
    }
  });

  it('checkpoints the WAL on a thread of its own, starting it again, and falls back to SQLite checkpoints without the thread', async () => {
    const file = path();
    const store = new SqliteStore({ path: file });
    // About two pages a commit: without restarts the WAL would reach three times the restart point,
    // past the fallback's (SQLite's own checkpoint at FALLBACK_AUTOCHECKPOINT_PAGES).
    const data = 'x'.repeat(3000);
    const commits = Math.ceil((3 * RESTART_WAL_AT_FRAMES) / 2);
    try {
      for (let i = 0; i < commits; i++) await store.transaction((tx) => tx.events.append({ type: 'big', at: 't', data }), { flush: 'later' });
      // The last commits may have started a checkpoint: its answer would count after the figures are taken.
      const checkpointer = (store as unknown as { checkpointer: { worker?: Worker; running?: Promise<void> } }).checkpointer;
      await checkpointer.running;
      const stats = store.checkpointStats;
      expect(stats.failures).toBe(0);
      expect(stats.checkpoints).toBeGreaterThan(stats.restarts);
      // Frames of 4 KiB pages and their 24-byte headers; the file keeps its largest size. Started
      // again before it reached the point where SQLite's own checkpoint would have. Who started it
      // is the scheduler's choice: the thread with writes held (the WAL reached RESTART_WAL_AT_FRAMES
      // while this writer never paused), or SQLite itself after a checkpoint caught up during a
      // pause (on a loaded machine the thread can run while this loop waits for a core). The held
      // step is driven in a fixed order in wal-checkpointer.test.ts.
      expect(statSync(`${file}-wal`).size).toBeLessThan(FALLBACK_AUTOCHECKPOINT_PAGES * (4096 + 24));
      expect(connection(store).pragma('wal_autocheckpoint', { simple: true })).toBe(FALLBACK_AUTOCHECKPOINT_PAGES);
      expect(await store.read((tx) => tx.events.lastSeq())).toBe(commits);
      expect(await store.integrityCheck()).toEqual([]);

      // The thread gone (here ended from outside), SQLite checkpoints inside the commit again, as by default.
      const worker = checkpointer.worker;
      expect(worker).toBeDefined();
      await worker!.terminate();
      expect(connection(store).pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
      for (let i = 0; i < 100; i++) await store.transaction((tx) => tx.events.append({ type: 'after', at: 't', data: null }));
      expect(store.checkpointStats).toEqual(stats);
      expect(await store.read((tx) => tx.events.lastSeq())).toBe(commits + 100);
    } finally {
      await store.close();
    }
    // Closed, the database holds everything without its WAL.
    const db = new BetterSqlite3(file, { readonly: true });
    try {
      expect(db.prepare('SELECT COUNT(*) AS n FROM events').get()).toEqual({ n: commits + 100 });
    } finally {
      db.close();
    }
  }, 60_000);

  it('applies a later migration on top, once', async () => {
    const p = path();
    await new SqliteStore({ path: p }).close();
    const db = new BetterSqlite3(p);
    expect(migrate(db)).toBe(LATEST_SCHEMA_VERSION);
    expect(db.prepare('SELECT COUNT(*) AS n FROM schema_migrations').get()).toEqual({ n: MIGRATIONS.length });
    const next = [...MIGRATIONS, { version: LATEST_SCHEMA_VERSION + 1, name: 'extra', sql: 'CREATE TABLE extra (x INTEGER) STRICT' }];
    expect(migrate(db, next)).toBe(LATEST_SCHEMA_VERSION + 1);
    expect(migrate(db, next)).toBe(LATEST_SCHEMA_VERSION + 1);
    expect(db.prepare('SELECT COUNT(*) AS n FROM schema_migrations').get()).toEqual({ n: MIGRATIONS.length + 1 });
    db.close();
  });
});
