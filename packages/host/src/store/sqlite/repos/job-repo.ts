import type { Database, Statement } from 'better-sqlite3';
import type { JobEnd, JobProcessIdentity, JobRecord, JobRepo, JobStatus } from '../../job-records';
import { JOB_COLUMNS, jobValues, toJobRecord, type JobRow } from '../../rows/job-row';
import { insertSql } from '../../rows/table';
import { selectWhere, BOUND_LIMIT } from './query';

export class SqliteJobRepo implements JobRepo {
  private readonly insertStmt: Statement;
  private readonly getStmt: Statement<[string], JobRow>;
  private readonly setProcessStmt: Statement;
  private readonly cancelStmt: Statement;
  private readonly finishStmt: Statement;

  constructor(private readonly db: Database) {
    this.insertStmt = db.prepare(insertSql('jobs', JOB_COLUMNS, () => '?'));
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
    this.insertStmt.run(...jobValues(j));
  }

  async get(id: string): Promise<JobRecord | undefined> {
    const row = this.getStmt.get(id);
    return row && toJobRecord(row);
  }

  async list(options: { status?: JobStatus; taskId?: string; limit?: number } = {}): Promise<JobRecord[]> {
    const filters = [['status = ?', options.status], ['task_id = ?', options.taskId]] as const;
    return selectWhere<JobRow>(this.db, 'SELECT * FROM jobs', filters, `ORDER BY rowid ${BOUND_LIMIT}`, [options.limit ?? -1]).map(toJobRecord);
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
