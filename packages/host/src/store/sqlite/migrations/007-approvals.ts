import type { Migration } from './migration';

/** High-impact tool calls waiting for, or decided by, a person (see store/approval-records.ts). */
export const approvalsMigration: Migration = {
  version: 7,
  name: 'approvals',
  sql: `
      CREATE TABLE approvals (
        id TEXT PRIMARY KEY,
        task_id TEXT NOT NULL,
        agent_id TEXT NOT NULL,
        call_key TEXT NOT NULL UNIQUE,
        tool TEXT NOT NULL,
        impact TEXT NOT NULL,
        input TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'denied')),
        requested_at TEXT NOT NULL,
        decided_by TEXT,
        decided_at TEXT,
        reason TEXT
      ) STRICT;
      CREATE INDEX approvals_by_status ON approvals (status, requested_at);
      CREATE INDEX approvals_by_task ON approvals (task_id, requested_at);
    `,
};
