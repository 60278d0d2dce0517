import type { Migration } from './migration';

/** Background jobs: the command, its process identity and how it ended (see store/job-repo.ts). */
export const jobsMigration: Migration = {
  version: 3,
  name: 'jobs',
  sql: `
      CREATE TABLE jobs (
        id TEXT PRIMARY KEY,
        name TEXT,
        command TEXT NOT NULL,
        args TEXT NOT NULL,
        cwd TEXT NOT NULL,
        env TEXT NOT NULL,
        status TEXT NOT NULL,
        pid INTEGER,
        pgid INTEGER,
        process_start_time INTEGER,
        supervisor_pid INTEGER,
        supervisor_start_time INTEGER,
        exit_code INTEGER,
        signal TEXT,
        error TEXT,
        created_by TEXT,
        created_at TEXT NOT NULL,
        started_at TEXT,
        ended_at TEXT,
        cancel_requested_at TEXT
      ) STRICT;
      CREATE INDEX jobs_status ON jobs(status);
    `,
};
