import type { Migration } from '../../sqlite/migrations/migration';
import { KEY } from './types';

/** Task events relayed between hosts (see store/task-event-records.ts): transient, pruned after a few minutes, not part of a workspace dump. */
export const taskEventsMigration: Migration = {
  version: 14,
  name: 'task-events',
  sql: `
      CREATE TABLE task_events (
        seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        origin ${KEY} NOT NULL,
        task_id ${KEY} NOT NULL,
        event text NOT NULL,
        at bigint NOT NULL
      );
      CREATE INDEX task_events_at ON task_events(at);
    `,
};
