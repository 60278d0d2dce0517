import type { Database, Statement } from 'better-sqlite3';
import type { MonitorChange, MonitorRecord, MonitorRepo, MonitorStatus } from '../../monitor-records';
import { MONITOR_COLUMNS, monitorValues, toMonitorRecord, type MonitorRow } from '../../rows/monitor-row';
import { insertSql } from '../../rows/table';
import { selectWhere, BOUND_LIMIT } from './query';

export class SqliteMonitorRepo implements MonitorRepo {
  private readonly insertStmt: Statement;
  private readonly getStmt: Statement<[string], MonitorRow>;
  private readonly changeStmt: Statement;
  private readonly checkStmt: Statement;
  private readonly cancelStmt: Statement;

  constructor(private readonly db: Database) {
    this.insertStmt = db.prepare(insertSql('monitors', MONITOR_COLUMNS, () => '?'));
    this.getStmt = db.prepare('SELECT * FROM monitors WHERE id = ?');
    this.changeStmt = db.prepare(
      `UPDATE monitors SET observation = ?, seq = seq + 1, last_checked_at = ?, last_changed_at = ?, next_due_at = ?
       WHERE id = ? AND status = 'active' AND seq = ?`,
    );
    this.checkStmt = db.prepare(`UPDATE monitors SET last_checked_at = ?, next_due_at = ? WHERE id = ? AND status = 'active'`);
    this.cancelStmt = db.prepare(`UPDATE monitors SET status = 'cancelled', cancelled_at = ? WHERE id = ? AND status = 'active'`);
  }

  async insert(m: MonitorRecord): Promise<void> {
    this.insertStmt.run(...monitorValues(m));
  }

  async get(id: string): Promise<MonitorRecord | undefined> {
    const row = this.getStmt.get(id);
    return row && toMonitorRecord(row);
  }

  async list(options: { taskId?: string; status?: MonitorStatus; limit?: number } = {}): Promise<MonitorRecord[]> {
    const filters = [['task_id = ?', options.taskId], ['status = ?', options.status]] as const;
    return selectWhere<MonitorRow>(this.db, 'SELECT * FROM monitors', filters, `ORDER BY rowid ${BOUND_LIMIT}`, [options.limit ?? -1]).map(toMonitorRecord);
  }

  async recordChange(id: string, c: MonitorChange): Promise<boolean> {
    return this.changeStmt.run(JSON.stringify(c.observation), c.checkedAt, c.checkedAt, c.nextDueAt, id, c.expectedSeq).changes === 1;
  }

  async recordChecks(checks: readonly { id: string; checkedAt: string; nextDueAt: string }[]): Promise<void> {
    for (const check of checks) this.checkStmt.run(check.checkedAt, check.nextDueAt, check.id);
  }

  async cancel(id: string, at: string): Promise<boolean> {
    return this.cancelStmt.run(at, id).changes === 1;
  }
}
