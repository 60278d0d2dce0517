import type { Migration } from './migration';

/** Tasks' published results (see store/publication-records.ts): listing reads these, never the disk. */
export const publicationsMigration: Migration = {
  version: 8,
  name: 'publications',
  sql: `
      CREATE TABLE publications (
        id TEXT PRIMARY KEY,
        task_id TEXT NOT NULL,
        source TEXT NOT NULL,
        revision INTEGER,
        commit_sha TEXT,
        file_name TEXT NOT NULL,
        media_type TEXT NOT NULL,
        sha256 TEXT NOT NULL,
        bytes INTEGER NOT NULL,
        published_at TEXT NOT NULL,
        operator TEXT NOT NULL,
        idempotency_key TEXT UNIQUE
      ) STRICT;
      CREATE INDEX publications_by_task ON publications (task_id, published_at);
    `,
};
