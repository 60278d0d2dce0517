import type { Database, Statement } from 'better-sqlite3';
import type { LeaseRecord, LeaseRepo } from '../../lease-records';
import { toLeaseRecord, type LeaseRow } from '../../rows/lease-row';

/** The database's clock in ms since the epoch (the same for every process on this workspace file). */
const NOW = `CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)`;

export class SqliteLeaseRepo implements LeaseRepo {
  private readonly acquireStmt: Statement;
  private readonly getStmt: Statement<[string], LeaseRow>;
  private readonly releaseStmt: Statement;
  private readonly liveStmt: Statement<[{ prefix: string }], LeaseRow>;

  constructor(db: Database) {
    // `WHERE true` keeps SQLite from reading ON CONFLICT as part of the SELECT.
    this.acquireStmt = db.prepare(
      `INSERT INTO leases (key, holder, acquired_at, expires_at) SELECT @key, @holder, n, n + @durationMs FROM (SELECT ${NOW} AS n) WHERE true
       ON CONFLICT (key) DO UPDATE SET
         acquired_at = CASE WHEN leases.holder = excluded.holder THEN leases.acquired_at ELSE excluded.acquired_at END,
         holder = excluded.holder, expires_at = excluded.expires_at
       WHERE leases.holder = excluded.holder OR leases.expires_at <= excluded.acquired_at OR leases.holder = @replacing`,
    );
    this.getStmt = db.prepare(`SELECT key, holder, acquired_at, expires_at, ${NOW} AS now FROM leases WHERE key = ?`);
    this.releaseStmt = db.prepare('DELETE FROM leases WHERE key = ? AND holder = ?');
    this.liveStmt = db.prepare(
      `SELECT key, holder, acquired_at, expires_at, n AS now FROM leases, (SELECT ${NOW} AS n)
       WHERE substr(key, 1, length(@prefix)) = @prefix AND expires_at > n ORDER BY key`,
    );
  }

  async acquire(key: string, holder: string, durationMs: number, replacing?: string): Promise<LeaseRecord> {
    this.acquireStmt.run({ key, holder, durationMs, replacing: replacing ?? null });
    return toLeaseRecord(this.getStmt.get(key)!);
  }

  async release(key: string, holder: string): Promise<boolean> {
    return this.releaseStmt.run(key, holder).changes > 0;
  }

  async get(key: string): Promise<LeaseRecord | undefined> {
    const row = this.getStmt.get(key);
    return row && toLeaseRecord(row);
  }

  async live(prefix: string): Promise<LeaseRecord[]> {
    return this.liveStmt.all({ prefix }).map(toLeaseRecord);
  }
}
