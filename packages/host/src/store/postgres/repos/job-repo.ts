import type { JobEnd, JobProcessIdentity, JobRecord, JobRepo, JobStatus } from '../../job-records';
import { JOB_COLUMNS, jobValues, toJobRecord, type JobRow } from '../../rows/job-row';
import { insertSql } from '../../rows/table';
import type { PgSession } from '../session';
import { pgPlaceholder } from './placeholders';

const INSERT = insertSql('jobs', JOB_COLUMNS, pgPlaceholder);

export class PgJobRepo implements JobRepo {
  constructor(private readonly s: PgSession) {}

  async insert(j: JobRecord): Promise<void> {
    await this.s.changes(INSERT, jobValues(j));
  }

  async get(id: string): Promise<JobRecord | undefined> {
    const row = await this.s.first<JobRow>('SELECT * FROM jobs WHERE id = $1', [id]);
    return row && toJobRecord(row);
  }

  async list(options: { status?: JobStatus; taskId?: string; limit?: number } = {}): Promise<JobRecord[]> {
    const rows = await this.s.selectWhere<JobRow>('SELECT * FROM jobs', [['status = ?', options.status], ['task_id = ?', options.taskId]], 'ORDER BY pos LIMIT ?', [options.limit ?? null]);
    return rows.map(toJobRecord);
  }

  async setProcess(id: string, p: JobProcessIdentity): Promise<boolean> {
    const sql = `UPDATE jobs SET pid = $1, pgid = $2, process_start_time = $3, supervisor_pid = $4, supervisor_start_time = $5, started_at = $6
                 WHERE id = $7 AND status = 'running'`;
    return (await this.s.changes(sql, [p.pid, p.pgid, p.processStartTime, p.supervisorPid, p.supervisorStartTime, p.startedAt, id])) === 1;
  }

  async requestCancel(id: string, at: string): Promise<boolean> {
    return (await this.s.changes("UPDATE jobs SET cancel_requested_at = $1 WHERE id = $2 AND status = 'running' AND cancel_requested_at IS NULL", [at, id])) === 1;
  }

  async finish(id: string, end: JobEnd): Promise<boolean> {
    const sql = "UPDATE jobs SET status = $1, exit_code = $2, signal = $3, error = $4, ended_at = $5 WHERE id = $6 AND status = 'running'";
    return (await this.s.changes(sql, [end.status, end.exitCode, end.signal, end.error, end.endedAt, id])) === 1;
  }
}
