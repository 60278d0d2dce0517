import type { Migration } from './migration';

/** Resources, revisions, candidates, drafts, selections, the coordinator event log, idempotency keys. */
export const kernelMigration: Migration = {
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
};
