import type { JobRecord, JobStatus } from '../job-records';
import type { Operator } from '../records';
import { parseStored } from '../../util/json';
import type { Param } from './table';

export interface JobRow {
  id: string;
  name: string | null;
  command: string;
  args: string;
  cwd: string;
  env: string;
  status: string;
  pid: number | null;
  pgid: number | null;
  process_start_time: number | null;
  supervisor_pid: number | null;
  supervisor_start_time: number | null;
  exit_code: number | null;
  signal: string | null;
  error: string | null;
  created_by: string | null;
  task_id: string | null;
  host_id: string | null;
  created_at: string;
  started_at: string | null;
  ended_at: string | null;
  cancel_requested_at: string | null;
}

export const JOB_COLUMNS = [
  'id', 'name', 'command', 'args', 'cwd', 'env', 'status', 'pid', 'pgid', 'process_start_time', 'supervisor_pid',
  'supervisor_start_time', 'exit_code', 'signal', 'error', 'created_by', 'created_at', 'started_at', 'ended_at', 'cancel_requested_at', 'task_id', 'host_id',
] as const;

export function jobValues(j: JobRecord): Param[] {
  return [
    j.id, j.name, j.command, JSON.stringify(j.args), j.cwd, JSON.stringify(j.env), j.status, j.pid, j.pgid, j.processStartTime, j.supervisorPid,
    j.supervisorStartTime, j.exitCode, j.signal, j.error, j.createdBy, j.createdAt, j.startedAt, j.endedAt, j.cancelRequestedAt, j.taskId, j.hostId,
  ];
}

export function toJobRecord(row: JobRow): JobRecord {
  return {
    id: row.id,
    name: row.name,
    command: row.command,
    args: parseStored<string[]>(row.args),
    cwd: row.cwd,
    env: parseStored<Record<string, string>>(row.env),
    status: row.status as JobStatus,
    pid: row.pid,
    pgid: row.pgid,
    processStartTime: row.process_start_time,
    supervisorPid: row.supervisor_pid,
    supervisorStartTime: row.supervisor_start_time,
    exitCode: row.exit_code,
    signal: row.signal,
    error: row.error,
    createdBy: row.created_by as Operator | null,
    taskId: row.task_id,
    hostId: row.host_id,
    createdAt: row.created_at,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    cancelRequestedAt: row.cancel_requested_at,
  };
}
