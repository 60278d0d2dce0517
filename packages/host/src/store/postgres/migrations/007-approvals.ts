import type { Migration } from '../../sqlite/migrations/migration';
import { KEY } from './types';

/** High-impact tool calls waiting for, or decided by, a person (see store/approval-records.ts). */
export const approvalsMigration: Migration = {
  version: 7,
  name: 'approvals',
  sql: `
      CREATE TABLE approvals (
        id ${KEY} PRIMARY KEY,
        task_id ${KEY} NOT NULL,
        agent_id ${KEY} NOT NULL,
        call_key ${KEY} NOT NULL UNIQUE,
        tool text NOT NULL,
        impact text NOT NULL,
        input text NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'approved', 'denied')),
        requested_at ${KEY} NOT NULL,
        decided_by ${KEY},
        decided_at ${KEY},
        reason text
      );
      CREATE INDEX approvals_by_status ON approvals (status, requested_at);
      CREATE INDEX approvals_by_task ON approvals (task_id, requested_at);
    `,
};
