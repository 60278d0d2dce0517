/**
 * The SQLite store: the shared store suite (store-suite.ts), and what only SQLite has. Invariants:
 * a workspace database is WAL with synchronous=FULL unless NORMAL is asked for explicitly (a
 * mistyped mode is refused); a migration added later applies on top, once.
 */
import BetterSqlite3 from 'better-sqlite3';
import { migrate, MIGRATIONS, LATEST_SCHEMA_VERSION } from '../../src/store/sqlite/migrations';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store';
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
