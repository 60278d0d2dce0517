import type { LastSeenRecord } from '../last-seen-records';
import type { Param } from './table';

export interface LastSeenRow {
  task_id: string;
  agent_id: string;
  resource_id: string;
  revision: number;
  call_key: string | null;
  previous_revision: number | null;
  seen_at: string;
}

export function lastSeenValues(r: LastSeenRecord): Param[] {
  return [r.taskId, r.agentId, r.resourceId, r.revision, r.callKey, r.previousRevision, r.seenAt];
}

export function toLastSeenRecord(row: LastSeenRow): LastSeenRecord {
  return {
    taskId: row.task_id,
    agentId: row.agent_id,
    resourceId: row.resource_id,
    revision: row.revision,
    callKey: row.call_key,
    previousRevision: row.previous_revision,
    seenAt: row.seen_at,
  };
}
