import type { LeaseRecord, LeaseRepo } from '../../lease-records';
import { toLeaseRecord, type LeaseRow } from '../../rows/lease-row';
import type { PgSession } from '../session';

/** The server's clock in ms since the epoch: one clock for every host, whatever machine it runs on. */
const NOW = '(extract(epoch FROM clock_timestamp()) * 1000)::bigint';

export class PgLeaseRepo implements LeaseRepo {
  constructor(private readonly s: PgSession) {}

  async acquire(key: string, holder: string, durationMs: number, replacing?: string): Promise<LeaseRecord> {
    await this.s.changes(
      `INSERT INTO leases (key, holder, acquired_at, expires_at) SELECT $1, $2, n, n + $3::bigint FROM (SELECT ${NOW} AS n) AS t
       ON CONFLICT (key) DO UPDATE SET
         acquired_at = CASE WHEN leases.holder = excluded.holder THEN leases.acquired_at ELSE excluded.acquired_at END,
         holder = excluded.holder, expires_at = excluded.expires_at
       WHERE leases.holder = excluded.holder OR leases.expires_at <= excluded.acquired_at OR leases.holder = $4`,
      [key, holder, durationMs, replacing ?? null],
    );
    return (await this.get(key))!;
  }

  async release(key: string, holder: string): Promise<boolean> {
    return (await this.s.changes('DELETE FROM leases WHERE key = $1 AND holder = $2', [key, holder])) > 0;
  }

  async get(key: string): Promise<LeaseRecord | undefined> {
    const row = await this.s.first<LeaseRow>(`SELECT key, holder, acquired_at, expires_at, ${NOW} AS now FROM leases WHERE key = $1`, [key]);
    return row && toLeaseRecord(row);
  }

  async live(prefix: string): Promise<LeaseRecord[]> {
    const rows = await this.s.rows<LeaseRow>(
      `SELECT key, holder, acquired_at, expires_at, n AS now FROM leases, (SELECT ${NOW} AS n) AS t
       WHERE left(key, length($1)) = $1 AND expires_at > n ORDER BY key`,
      [prefix],
    );
    return rows.map(toLeaseRecord);
  }
}
