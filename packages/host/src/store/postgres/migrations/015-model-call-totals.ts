import type { Migration } from '../../sqlite/migrations/migration';

/** Model calls by task in id order, for a task's running token total (see the SQLite migration 015). */
export const modelCallTotalsMigration: Migration = {
  version: 15,
  name: 'model-call-totals',
  sql: `
      CREATE INDEX model_calls_task ON model_calls(task_id, id);
    `,
};
