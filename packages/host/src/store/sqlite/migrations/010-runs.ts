import type { Migration } from './migration';

/** Tasks' runs (see store/run-records.ts) and their metrics' series. */
export const runsMigration: Migration = {
  version: 10,
  name: 'runs',
  sql: `
      CREATE TABLE runs (
        id TEXT PRIMARY KEY,
        task_id TEXT NOT NULL,
        name TEXT NOT NULL,
        params TEXT NOT NULL,
        status TEXT NOT NULL,
        started_at TEXT NOT NULL,
        ended_at TEXT,
        goal TEXT,
        artifacts TEXT NOT NULL,
        metrics TEXT NOT NULL,
        problems TEXT NOT NULL,
        problem_count INTEGER NOT NULL,
        sources TEXT NOT NULL,
        created_by TEXT,
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX runs_by_task ON runs (task_id, started_at);
      CREATE TABLE run_points (
        run_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        name TEXT NOT NULL,
        step INTEGER,
        value REAL NOT NULL,
        at TEXT NOT NULL,
        PRIMARY KEY (run_id, seq)
      ) STRICT;
      CREATE INDEX run_points_by_name ON run_points (run_id, name, seq);
    `,
};
