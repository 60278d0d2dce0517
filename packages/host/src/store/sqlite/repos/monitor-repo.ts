import type { Database, Statement } from 'better-sqlite3';
import type { MonitorChange, MonitorKind, MonitorRecord, MonitorRepo, MonitorStatus, MonitorTarget } from '../../monitor-records';
import type { Operator } from '../../records';
import { parseStored } from '../../../util/json';
import { selectWhere } from './query';

interface MonitorRow {
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

export class SqliteMonitorRepo implements MonitorRepo {
  private readonly insertStmt: Statement;
  private readonly getStmt: Statement<[string], MonitorRow>;
  private readonly changeStmt: Statement;
  private readonly checkStmt: Statement;
  private readonly cancelStmt: Statement;

  constructor(private readonly db: Database) {
    this.insertStmt = db.prepare(
      `INSERT INTO monitors (id, name, kind, target, interval_ms, task_id, agent_id, status, observation, seq, created_by,
         created_at, last_checked_at, last_changed_at, next_due_at, cancelled_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.getStmt = db.prepare('SELECT * FROM monitors WHERE id = ?');
    this.changeStmt = db.prepare(
      `UPDATE monitors SET observation = ?, seq = seq + 1, last_checked_at = ?, last_changed_at = ?, next_due_at = ?
       WHERE id = ? AND status = 'active' AND seq = ?`,
    );
    this.checkStmt = db.prepare(`UPDATE monitors SET last_checked_at = ?, next_due_at = ? WHERE id = ? AND status = 'active'`);
    this.cancelStmt = db.prepare(`UPDATE monitors SET status = 'cancelled', cancelled_at = ? WHERE id = ? AND status = 'active'`);
  }

  async insert(m: MonitorRecord): Promise<void> {
    this.insertStmt.run(
      m.id,
      m.name,
      m.kind,
      JSON.stringify(m.target),
      m.intervalMs,
      m.taskId,
      m.agentId,
      m.status,
      JSON.stringify(m.observation),
      m.seq,
      m.createdBy,
      m.createdAt,
      m.lastCheckedAt,
      m.lastChangedAt,
      m.nextDueAt,
      m.cancelledAt,
    );
  }

  async get(id: string): Promise<MonitorRecord | undefined> {
    const row = this.getStmt.get(id);
    return row && toRecord(row);
  }

  async list(options: { taskId?: string; status?: MonitorStatus; limit?: number } = {}): Promise<MonitorRecord[]> {
    const filters = [['task_id = ?', options.taskId], ['status = ?', options.status]] as const;
    return selectWhere<MonitorRow>(this.db, 'SELECT * FROM monitors', filters, 'ORDER BY rowid LIMIT ?', [options.limit ?? -1]).map(toRecord);
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

function toRecord(row: MonitorRow): MonitorRecord {
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
