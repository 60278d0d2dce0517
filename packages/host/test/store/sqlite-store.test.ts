/**
 * Invariants: a workspace database is WAL with synchronous=FULL unless NORMAL is asked for
 * explicitly; migrations are versioned and applied once; a database from a newer host is refused;
 * a failed transaction keeps nothing; the event log is append-only with gap-free sequence numbers;
 * write transactions that arrive together share one COMMIT (group commit), each body in arrival
 * order with its own savepoint, so one that throws fails alone.
 */
import BetterSqlite3 from 'better-sqlite3';
import { migrate, MIGRATIONS, LATEST_SCHEMA_VERSION } from '../../src/store/sqlite/migrations';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store';
import { tempDir } from '../support/temp-host';

describe('SQLite store', () => {
  const dir = tempDir();
  afterAll(() => dir.cleanup());
  let n = 0;
  const path = (): string => `${dir.path}/db${n++}.sqlite`;

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

  it('applies each migration once and records its version', async () => {
    const p = path();
    const first = new SqliteStore({ path: p });
    expect(await first.schemaVersion()).toBe(LATEST_SCHEMA_VERSION);
    await first.close();
    const db = new BetterSqlite3(p);
    expect(migrate(db)).toBe(LATEST_SCHEMA_VERSION);
    expect(db.prepare('SELECT COUNT(*) AS n FROM schema_migrations').get()).toEqual({ n: MIGRATIONS.length });
    // A later migration applies on top, once.
    const next = [...MIGRATIONS, { version: LATEST_SCHEMA_VERSION + 1, name: 'extra', sql: 'CREATE TABLE extra (x INTEGER) STRICT' }];
    expect(migrate(db, next)).toBe(LATEST_SCHEMA_VERSION + 1);
    expect(migrate(db, next)).toBe(LATEST_SCHEMA_VERSION + 1);
    db.close();
    // This host does not know that version: it refuses the workspace instead of guessing.
    expect(() => new SqliteStore({ path: p })).toThrow(expect.objectContaining({ code: 'schema_too_new' }));
  });

  it('keeps nothing from a transaction that throws, and numbers events without gaps', async () => {
    const store = new SqliteStore({ path: path() });
    await store.transaction((tx) => tx.events.append({ type: 'a', at: 't', data: 1 }));
    await expect(
      store.transaction(async (tx) => {
        await tx.events.append({ type: 'b', at: 't', data: 2 });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await store.transaction((tx) => tx.events.append({ type: 'c', at: 't', data: 3 }));
    const events = await store.read((tx) => tx.events.list(0));
    expect(events.map((e) => [e.seq, e.type])).toEqual([
      [1, 'a'],
      [2, 'c'],
    ]);
    expect(await store.integrityCheck()).toEqual([]);
    await store.close();
    await expect(store.read((tx) => tx.events.lastSeq())).rejects.toMatchObject({ code: 'store_failed' });
  });

  it('runs write transactions that arrive together in one batch: in order, one that throws undone alone, each answered after the commit', async () => {
    const file = path();
    const store = new SqliteStore({ path: file });
    // Another connection on the same file sees only what is committed.
    const other = new SqliteStore({ path: file });
    const seen: string[] = [];
    const write = (type: string, fail = false): Promise<number> =>
      store.transaction(async (tx) => {
        // Each body sees the ones before it in the batch, as if they had committed.
        seen.push(`${type}:${await tx.events.lastSeq()}`);
        const seq = await tx.events.append({ type, at: 't', data: null });
        if (fail) throw new Error(`${type} changed its mind`);
        return seq;
      });
    const visibleWhenAnswered = write('a').then(() => other.read((tx) => tx.events.list(0)));
    const results = await Promise.allSettled([write('a'), write('b', true), write('c'), write('d')]);
    // When the first caller is answered, the whole batch is committed (the others' events too).
    expect((await visibleWhenAnswered).map((e) => e.type)).toEqual(['a', 'a', 'c', 'd']);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([2, 'b changed its mind', 3, 4]);
    expect(seen).toEqual(['a:0', 'a:1', 'b:2', 'c:2', 'd:3']);
    expect(store.groupCommitStats).toEqual({ batches: 1, transactions: 5, largest: 5, durable: 1 });
    expect((await store.read((tx) => tx.events.list(0))).map((e) => [e.seq, e.type])).toEqual([[1, 'a'], [2, 'a'], [3, 'c'], [4, 'd']]);

    // maxBatch 1: each its own transaction, as without group commit; a window gathers later writers.
    const single = new SqliteStore({ path: path(), groupCommit: { maxBatch: 1 } });
    await Promise.all(['a', 'b', 'c'].map((type) => single.transaction((tx) => tx.events.append({ type, at: 't', data: null }))));
    expect((await single.read((tx) => tx.events.list(0))).map((e) => e.type)).toEqual(['a', 'b', 'c']);
    const windowed = new SqliteStore({ path: path(), groupCommit: { windowMs: 30 } });
    const first = windowed.transaction((tx) => tx.events.append({ type: 'early', at: 't', data: null }));
    await new Promise((resolve) => setTimeout(resolve, 5));
    await Promise.all([first, windowed.transaction((tx) => tx.events.append({ type: 'late', at: 't', data: null }))]);
    expect(windowed.groupCommitStats).toMatchObject({ batches: 1, transactions: 2 });
    for (const bad of [{ maxBatch: 0 }, { maxBatch: 1.5 }, { windowMs: -1 }, { windowMs: Number.NaN }]) {
      expect(() => new SqliteStore({ path: path(), groupCommit: bad })).toThrow(expect.objectContaining({ code: 'invalid_input' }));
    }
    await Promise.all([store.close(), other.close(), single.close(), windowed.close()]);
    await expect(store.transaction((tx) => tx.events.lastSeq())).rejects.toMatchObject({ code: 'store_failed' });
  });

  it('waits for another connection holding the write lock, then fails with store_busy past the timeout', async () => {
    const p = path();
    const patient = new SqliteStore({ path: p, busyTimeoutMs: 2000 });
    const impatient = new SqliteStore({ path: p, busyTimeoutMs: 50 });
    const holder = new BetterSqlite3(p);
    holder.exec('BEGIN IMMEDIATE');
    const waiting = patient.transaction((tx) => tx.events.append({ type: 'x', at: 't', data: null }));
    await expect(impatient.transaction((tx) => tx.events.append({ type: 'y', at: 't', data: null }))).rejects.toMatchObject({
      code: 'store_busy',
    });
    // The event loop stayed free while both waited: release the lock and the patient one commits.
    holder.exec('COMMIT');
    await expect(waiting).resolves.toBe(1);
    holder.close();
    await patient.close();
    await impatient.close();
  });
});
