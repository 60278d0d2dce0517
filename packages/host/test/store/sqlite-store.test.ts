/**
 * Invariants: a workspace database is WAL with synchronous=FULL unless NORMAL is asked for
 * explicitly; migrations are versioned and applied once; a database from a newer host is refused;
 * a failed transaction keeps nothing; the event log is append-only with gap-free sequence numbers.
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
