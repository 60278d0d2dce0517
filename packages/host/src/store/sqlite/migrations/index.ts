import type { Database } from 'better-sqlite3';
import { CoworkError } from '../../../errors';
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
import type { Migration } from './migration';

/** Every migration, in version order. Subsystems add theirs as new files in this folder. */
export const MIGRATIONS: readonly Migration[] = [kernelMigration, agentsMigration, jobsMigration, monitorsMigration, idempotencyScopesMigration, usersMigration, approvalsMigration, publicationsMigration, lastSeenMigration, runsMigration, resourceTitlesMigration, leasesMigration, jobHostsMigration, taskEventsMigration, modelCallTotalsMigration];

export const LATEST_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;

/** Brings the database up to the latest schema; refuses a database written by a newer host. */
export function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS): number {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT`);
  const current = currentVersion(db);
  const latest = migrations[migrations.length - 1]?.version ?? 0;
  if (current > latest) {
    throw new CoworkError('schema_too_new', `workspace schema version ${current} is newer than this host's ${latest}`, {
      schemaVersion: current,
      supportedVersion: latest,
    });
  }
  for (const migration of migrations) {
    if (migration.version <= current) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        migration.version,
        migration.name,
        new Date().toISOString(),
      );
    }).immediate();
  }
  return currentVersion(db);
}

export function currentVersion(db: Database): number {
  const row = db.prepare('SELECT MAX(version) AS version FROM schema_migrations').get() as { version: number | null };
  return row.version ?? 0;
}

export type { Migration };
