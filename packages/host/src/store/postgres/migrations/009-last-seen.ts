import type { Migration } from '../../sqlite/migrations/migration';
import { KEY } from './types';

/** The revision each agent of a task last saw of each resource (see store/last-seen-records.ts). */
export const lastSeenMigration: Migration = {
  version: 9,
  name: 'last-seen',
  sql: `
      CREATE TABLE last_seen (
        task_id ${KEY} NOT NULL,
        agent_id ${KEY} NOT NULL,
        resource_id ${KEY} NOT NULL REFERENCES resources(id),
        revision bigint NOT NULL CHECK (revision >= 0),
        call_key ${KEY},
        previous_revision bigint,
        seen_at ${KEY} NOT NULL,
        PRIMARY KEY (task_id, agent_id, resource_id)
      );
    `,
};
