import type { Database, Statement } from 'better-sqlite3';
import type { JobEnd, JobProcessIdentity, JobRecord, JobRepo, JobStatus } from '../../job-records';
import type { Operator } from '../../records';
import { parseStored } from '../../../util/json';
import { selectWhere } from './query';

interface JobRow {
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
  created_at: string;
  started_at: string | null;
  ended_at: string | null;
  cancel_requested_at: string | null;
}

export class SqliteJobRepo implements JobRepo {
  private readonly insertStmt: Statement;
  private readonly getStmt: Statement<[string], JobRow>;
  private readonly setProcessStmt: Statement;
  private readonly cancelStmt: Statement;
  private readonly finishStmt: Statement;

  constructor(private readonly db: Database) {
    this.insertStmt = db.prepare(
      `INSERT INTO jobs (id, name, command, args, cwd, env, status, pid, pgid, process_start_time, supervisor_pid,
         supervisor_start_time, exit_code, signal, error, created_by, created_at, started_at, ended_at, cancel_requested_at, task_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.getStmt = db.prepare('SELECT * FROM jobs WHERE id = ?');
    this.setProcessStmt = db.prepare(
      `UPDATE jobs SET pid = ?, pgid = ?, process_start_time = ?, supervisor_pid = ?, supervisor_start_time = ?, started_at = ?
       WHERE id = ? AND status = 'running'`,
    );
    this.cancelStmt = db.prepare(
      `UPDATE jobs SET cancel_requested_at = ? WHERE id = ? AND status = 'running' AND cancel_requested_at IS NULL`,
    );
    this.finishStmt = db.prepare(
      `UPDATE jobs SET status = ?, exit_code = ?, signal = ?, error = ?, ended_at = ? WHERE id = ? AND status = 'running'`,
    );
  }

  async insert(j: JobRecord): Promise<void> {
    this.insertStmt.run(
      j.id,
      j.name,
      j.command,
      JSON.stringify(j.args),
      j.cwd,
      JSON.stringify(j.env),
      j.status,
      j.pid,
      j.pgid,
      j.processStartTime,
      j.supervisorPid,
      j.supervisorStartTime,
      j.exitCode,
      j.signal,
      j.error,
      j.createdBy,
      j.createdAt,
      j.startedAt,
      j.endedAt,
      j.cancelRequestedAt,
      j.taskId,
    );
  }

  async get(id: string): Promise<JobRecord | undefined> {
    const row = this.getStmt.get(id);
    return row && toRecord(row);
  }

  async list(options: { status?: JobStatus; taskId?: string; limit?: number } = {}): Promise<JobRecord[]> {
    const filters = [['status = ?', options.status], ['task_id = ?', options.taskId]] as const;
    return selectWhere<JobRow>(this.db, 'SELECT * FROM jobs', filters, 'ORDER BY rowid LIMIT ?', [options.limit ?? -1]).map(toRecord);
  }

  async setProcess(id: string, p: JobProcessIdentity): Promise<boolean> {
    const result = this.setProcessStmt.run(p.pid, p.pgid, p.processStartTime, p.supervisorPid, p.supervisorStartTime, p.startedAt, id);
    return result.changes === 1;
  }

  async requestCancel(id: string, at: string): Promise<boolean> {
    return this.cancelStmt.run(at, id).changes === 1;
  }

  async finish(id: string, end: JobEnd): Promise<boolean> {
    return this.finishStmt.run(end.status, end.exitCode, end.signal, end.error, end.endedAt, id).changes === 1;
  }
}

function toRecord(row: JobRow): JobRecord {
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
    createdAt: row.created_at,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    cancelRequestedAt: row.cancel_requested_at,
  };
}
