import type { Database } from 'better-sqlite3';
import { CoworkError } from '../../errors';

/**
 * Versioned schema migrations. Append new ones at the end with the next version; never edit one
 * that has shipped. Each runs in its own transaction together with its `schema_migrations` row.
 */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'kernel',
    sql: `
      CREATE TABLE resources (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        revision INTEGER NOT NULL,
        content TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX resources_kind ON resources(kind);

      CREATE TABLE revisions (
        resource_id TEXT NOT NULL REFERENCES resources(id),
        revision INTEGER NOT NULL,
        action TEXT NOT NULL,
        op TEXT NOT NULL,
        operator TEXT NOT NULL,
        created_at TEXT NOT NULL,
        snapshot TEXT,
        PRIMARY KEY (resource_id, revision)
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE candidates (
        id TEXT PRIMARY KEY,
        resource_id TEXT NOT NULL REFERENCES resources(id),
        base_revision INTEGER NOT NULL,
        ops TEXT NOT NULL,
        operator TEXT NOT NULL,
        source TEXT NOT NULL,
        draft_id TEXT,
        status TEXT NOT NULL,
        created_at TEXT NOT NULL,
        resolved_at TEXT,
        resolved_by TEXT,
        accepted_revision INTEGER
      ) STRICT;
      CREATE INDEX candidates_resource ON candidates(resource_id, status);

      CREATE TABLE drafts (
        id TEXT PRIMARY KEY,
        resource_id TEXT NOT NULL REFERENCES resources(id),
        owner TEXT NOT NULL,
        base_revision INTEGER NOT NULL,
        content TEXT NOT NULL,
        ops TEXT NOT NULL,
        status TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX drafts_owner ON drafts(owner, resource_id);

      CREATE TABLE selections (
        resource_id TEXT NOT NULL REFERENCES resources(id),
        person TEXT NOT NULL,
        selection TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (resource_id, person)
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE events (
        seq INTEGER PRIMARY KEY,
        type TEXT NOT NULL,
        at TEXT NOT NULL,
        data TEXT NOT NULL
      ) STRICT;

      CREATE TABLE idempotency (
        key TEXT PRIMARY KEY,
        result TEXT NOT NULL,
        created_at TEXT NOT NULL
      ) STRICT, WITHOUT ROWID;
    `,
  },
];

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
