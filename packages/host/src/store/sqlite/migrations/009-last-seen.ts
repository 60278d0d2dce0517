import type { Migration } from './migration';

/** The revision each agent of a task last saw of each resource (see store/last-seen-records.ts). */
export const lastSeenMigration: Migration = {
  version: 9,
  name: 'last-seen',
  sql: `
      CREATE TABLE last_seen (
        task_id TEXT NOT NULL,
        agent_id TEXT NOT NULL,
        resource_id TEXT NOT NULL REFERENCES resources(id),
        revision INTEGER NOT NULL CHECK (revision >= 0),
        call_key TEXT,
        previous_revision INTEGER,
        seen_at TEXT NOT NULL,
        PRIMARY KEY (task_id, agent_id, resource_id)
      ) STRICT;
    `,
};
