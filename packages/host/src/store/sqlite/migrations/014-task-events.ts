import type { Migration } from './migration';

/**
 * Task events relayed between hosts (see store/task-event-records.ts): transient, pruned after a few
 * minutes, not part of a workspace dump. AUTOINCREMENT: a seq is never reused after a prune, so a
 * reader's cursor stays valid. (PostgreSQL is where several hosts relay; SQLite has the table so
 * that both stores keep one schema.)
 */
export const taskEventsMigration: Migration = {
  version: 14,
  name: 'task-events',
  sql: `
      CREATE TABLE task_events (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        origin TEXT NOT NULL,
        task_id TEXT NOT NULL,
        event TEXT NOT NULL,
        at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX task_events_at ON task_events(at);
    `,
};
