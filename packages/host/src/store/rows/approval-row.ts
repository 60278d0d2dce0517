import type { ApprovalRecord, ApprovalStatus } from '../approval-records';
import type { Operator } from '../records';
import { parseStored } from '../../util/json';
import type { Param } from './table';

export interface ApprovalRow {
  id: string;
  task_id: string;
  agent_id: string;
  call_key: string;
  tool: string;
  impact: string;
  input: string;
  status: string;
  requested_at: string;
  decided_by: string | null;
  decided_at: string | null;
  reason: string | null;
}

export const APPROVAL_COLUMNS = ['id', 'task_id', 'agent_id', 'call_key', 'tool', 'impact', 'input', 'status', 'requested_at', 'decided_by', 'decided_at', 'reason'] as const;

export function approvalValues(a: ApprovalRecord): Param[] {
  return [a.id, a.taskId, a.agentId, a.callKey, a.tool, a.impact, JSON.stringify(a.input), a.status, a.requestedAt, a.decidedBy, a.decidedAt, a.reason];
}

export function toApprovalRecord(row: ApprovalRow): ApprovalRecord {
  return {
    id: row.id,
    taskId: row.task_id,
    agentId: row.agent_id,
    callKey: row.call_key,
    tool: row.tool,
    impact: row.impact,
    input: parseStored(row.input),
    status: row.status as ApprovalStatus,
    requestedAt: row.requested_at,
    decidedBy: row.decided_by as Operator | null,
    decidedAt: row.decided_at,
    reason: row.reason,
  };
}
