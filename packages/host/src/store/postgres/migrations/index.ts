import type { Pool, PoolClient } from 'pg';
import { CoworkError } from '../../../errors';
import type { Migration } from '../../sqlite/migrations/migration';
import { toPgStoreError } from '../pg-errors';
import { WRITE_LOCK } from '../write-lock';
import { kernelMigration } from './001-kernel';
import { agentsMigration } from './002-agents';
import { jobsMigration } from './003-jobs';
import { monitorsMigration } from './004-monitors';
import { idempotencyScopesMigration } from './005-idempotency-scopes';
import { usersMigration } from './006-users';
import { approvalsMigration } from './007-approvals';
import { publicationsMigration } from './008-publications';
import { lastSeenMigration } from './009-last-seen';
import { runsMigration } from './010-runs';
import { resourceTitlesMigration } from './011-resource-titles';
import { leasesMigration } from './012-leases';
import { jobHostsMigration } from './013-job-hosts';
import { taskEventsMigration } from './014-task-events';
import { modelCallTotalsMigration } from './015-model-call-totals';

/**
 * Every migration of the PostgreSQL schema, in version order: the same versions and names as
 * SQLite's (store/sqlite/migrations), so `schemaVersion()` means the same tables on both.
 */
export const PG_MIGRATIONS: readonly Migration[] = [kernelMigration, agentsMigration, jobsMigration, monitorsMigration, idempotencyScopesMigration, usersMigration, approvalsMigration, publicationsMigration, lastSeenMigration, runsMigration, resourceTitlesMigration, leasesMigration, jobHostsMigration, taskEventsMigration, modelCallTotalsMigration];

/**
 * Brings the database up to the latest schema, one migration per transaction, each under the write
 * lock (hosts starting together on an empty database migrate once, and no write runs against a half
 * changed schema); refuses a database written by a newer host.
 */
export async function migratePostgres(pool: Pool, migrations: readonly Migration[] = PG_MIGRATIONS): Promise<number> {
  const latest = migrations[migrations.length - 1]?.version ?? 0;
  const client = await pool.connect().catch((error: unknown) => Promise.reject(toPgStoreError(error)));
  let broken = false;
  try {
    for (;;) {
      await client.query(`BEGIN; SELECT pg_advisory_xact_lock(${WRITE_LOCK});
        CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL)`);
      const current = await currentPgVersion(client);
      if (current > latest) {
        await client.query('ROLLBACK');
        throw new CoworkError('schema_too_new', `workspace schema version ${current} is newer than this host's ${latest}`, { schemaVersion: current, supportedVersion: latest });
      }
      const next = migrations.find((migration) => migration.version > current);
      if (!next) {
        await client.query('COMMIT');
        return current;
      }
      await client.query(next.sql);
      await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [next.version, next.name, new Date().toISOString()]);
      await client.query('COMMIT');
    }
  } catch (error) {
    const mapped = toPgStoreError(error);
    broken = true;
    await client.query('ROLLBACK').catch(() => undefined);
    throw mapped;
  } finally {
    client.release(broken);
  }
}

export async function currentPgVersion(client: Pick<PoolClient, 'query'>): Promise<number> {
  const { rows } = await client.query<{ version: number | null }>('SELECT MAX(version) AS version FROM schema_migrations');
  return rows[0]?.version ?? 0;
}
