import type { Migration } from './migration';

/**
 * Model calls by task in id order: a task's running token total (agents/token-totals.ts) reads the
 * calls after the last one it counted every turn. With only (task_id, agent_id) that read walked
 * every call the task ever made, so a turn's cost grew with the task.
 */
export const modelCallTotalsMigration: Migration = {
  version: 15,
  name: 'model-call-totals',
  sql: `
      CREATE INDEX model_calls_task ON model_calls(task_id, id);
    `,
};
