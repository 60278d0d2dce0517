import type { Migration } from '../../sqlite/migrations/migration';
import { KEY } from './types';

/** Tasks' runs (see store/run-records.ts) and their metrics' series. */
export const runsMigration: Migration = {
  version: 10,
  name: 'runs',
  sql: `
      CREATE TABLE runs (
        id ${KEY} PRIMARY KEY,
        task_id ${KEY} NOT NULL,
        name text NOT NULL,
        params text NOT NULL,
        status text NOT NULL,
        started_at ${KEY} NOT NULL,
        ended_at ${KEY},
        goal text,
        artifacts text NOT NULL,
        metrics text NOT NULL,
        problems text NOT NULL,
        problem_count bigint NOT NULL,
        sources text NOT NULL,
        created_by ${KEY},
        updated_at ${KEY} NOT NULL
      );
      CREATE INDEX runs_by_task ON runs (task_id, started_at);
      CREATE TABLE run_points (
        run_id ${KEY} NOT NULL,
        seq bigint NOT NULL,
        name ${KEY} NOT NULL,
        step bigint,
        value double precision NOT NULL,
        at ${KEY} NOT NULL,
        PRIMARY KEY (run_id, seq)
      );
      CREATE INDEX run_points_by_name ON run_points (run_id, name, seq);
    `,
};
