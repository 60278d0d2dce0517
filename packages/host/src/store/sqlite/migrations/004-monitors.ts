import type { Migration } from './migration';

/**
 * Monitors and their last observations (see store/monitor-records.ts), and the task that started
 * each job, so that the completion gate can count a task's running jobs.
 */
export const monitorsMigration: Migration = {
  version: 4,
  name: 'monitors',
  sql: `
      CREATE TABLE monitors (
        id TEXT PRIMARY KEY,
        name TEXT,
        kind TEXT NOT NULL,
        target TEXT NOT NULL,
        interval_ms INTEGER,
        task_id TEXT NOT NULL,
        agent_id TEXT NOT NULL,
        status TEXT NOT NULL,
        observation TEXT NOT NULL,
        seq INTEGER NOT NULL,
        created_by TEXT,
        created_at TEXT NOT NULL,
        last_checked_at TEXT,
        last_changed_at TEXT,
        next_due_at TEXT NOT NULL,
        cancelled_at TEXT
      ) STRICT;
      CREATE INDEX monitors_task ON monitors(task_id, status);
      CREATE INDEX monitors_status ON monitors(status);

      ALTER TABLE jobs ADD COLUMN task_id TEXT;
      CREATE INDEX jobs_task ON jobs(task_id, status);
    `,
};
