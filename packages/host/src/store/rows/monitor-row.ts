import type { MonitorKind, MonitorRecord, MonitorStatus, MonitorTarget } from '../monitor-records';
import type { Operator } from '../records';
import { parseStored } from '../../util/json';
import type { Param } from './table';

export interface MonitorRow {
  id: string;
  name: string | null;
  kind: string;
  target: string;
  interval_ms: number | null;
  task_id: string;
  agent_id: string;
  status: string;
  observation: string;
  seq: number;
  created_by: string | null;
  created_at: string;
  last_checked_at: string | null;
  last_changed_at: string | null;
  next_due_at: string;
  cancelled_at: string | null;
}

export const MONITOR_COLUMNS = [
  'id', 'name', 'kind', 'target', 'interval_ms', 'task_id', 'agent_id', 'status', 'observation', 'seq', 'created_by',
  'created_at', 'last_checked_at', 'last_changed_at', 'next_due_at', 'cancelled_at',
] as const;

export function monitorValues(m: MonitorRecord): Param[] {
  return [
    m.id, m.name, m.kind, JSON.stringify(m.target), m.intervalMs, m.taskId, m.agentId, m.status, JSON.stringify(m.observation), m.seq, m.createdBy,
    m.createdAt, m.lastCheckedAt, m.lastChangedAt, m.nextDueAt, m.cancelledAt,
  ];
}

export function toMonitorRecord(row: MonitorRow): MonitorRecord {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind as MonitorKind,
    target: parseStored<MonitorTarget>(row.target),
    intervalMs: row.interval_ms,
    taskId: row.task_id,
    agentId: row.agent_id,
    status: row.status as MonitorStatus,
    observation: parseStored(row.observation),
    seq: row.seq,
    createdBy: row.created_by as Operator | null,
    createdAt: row.created_at,
    lastCheckedAt: row.last_checked_at,
    lastChangedAt: row.last_changed_at,
    nextDueAt: row.next_due_at,
    cancelledAt: row.cancelled_at,
  };
}
