import type { MonitorChange, MonitorRecord, MonitorRepo, MonitorStatus } from '../../monitor-records';
import { MONITOR_COLUMNS, monitorValues, toMonitorRecord, type MonitorRow } from '../../rows/monitor-row';
import { insertSql } from '../../rows/table';
import type { PgSession } from '../session';
import { pgPlaceholder } from './placeholders';

const INSERT = insertSql('monitors', MONITOR_COLUMNS, pgPlaceholder);

export class PgMonitorRepo implements MonitorRepo {
  constructor(private readonly s: PgSession) {}

  async insert(m: MonitorRecord): Promise<void> {
    await this.s.changes(INSERT, monitorValues(m));
  }

  async get(id: string): Promise<MonitorRecord | undefined> {
    const row = await this.s.first<MonitorRow>('SELECT * FROM monitors WHERE id = $1', [id]);
    return row && toMonitorRecord(row);
  }

  async list(options: { taskId?: string; status?: MonitorStatus; limit?: number } = {}): Promise<MonitorRecord[]> {
    const rows = await this.s.selectWhere<MonitorRow>('SELECT * FROM monitors', [['task_id = ?', options.taskId], ['status = ?', options.status]], 'ORDER BY pos LIMIT ?', [options.limit ?? null]);
    return rows.map(toMonitorRecord);
  }

  async recordChange(id: string, c: MonitorChange): Promise<boolean> {
    const sql = `UPDATE monitors SET observation = $1, seq = seq + 1, last_checked_at = $2, last_changed_at = $2, next_due_at = $3
                 WHERE id = $4 AND status = 'active' AND seq = $5`;
    return (await this.s.changes(sql, [JSON.stringify(c.observation), c.checkedAt, c.nextDueAt, id, c.expectedSeq])) === 1;
  }

  /** One statement for the whole checkpoint; a monitor checked twice keeps its last check, as one by one would. */
  async recordChecks(checks: readonly { id: string; checkedAt: string; nextDueAt: string }[]): Promise<void> {
    const last = [...new Map(checks.map((check) => [check.id, check])).values()];
    if (last.length === 0) return;
    await this.s.changes(
      `UPDATE monitors m SET last_checked_at = c.checked_at, next_due_at = c.next_due_at
       FROM unnest($1::text[], $2::text[], $3::text[]) AS c(id, checked_at, next_due_at)
       WHERE m.id = c.id AND m.status = 'active'`,
      [last.map((c) => c.id), last.map((c) => c.checkedAt), last.map((c) => c.nextDueAt)]
    );
  }

  async cancel(id: string, at: string): Promise<boolean> {
    return (await this.s.changes("UPDATE monitors SET status = 'cancelled', cancelled_at = $1 WHERE id = $2 AND status = 'active'", [at, id])) === 1;
  }
}
