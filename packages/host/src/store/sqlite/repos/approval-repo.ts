import type { Database, Statement } from 'better-sqlite3';
import type { ApprovalRecord, ApprovalRepo, ApprovalStatus } from '../../approval-records';
import type { Operator } from '../../records';
import { parseStored } from '../../../util/json';

interface ApprovalRow {
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

export class SqliteApprovalRepo implements ApprovalRepo {
  private readonly insertStmt: Statement;
  private readonly getStmt: Statement<[string], ApprovalRow>;
  private readonly byKeyStmt: Statement<[string], ApprovalRow>;
  private readonly listStmt: Statement<[{ status: string | null; taskId: string | null }], ApprovalRow>;
  private readonly decideStmt: Statement<[string, string, string, string | null, string]>;

  constructor(db: Database) {
    this.insertStmt = db.prepare(
      `INSERT INTO approvals (id, task_id, agent_id, call_key, tool, impact, input, status, requested_at, decided_by, decided_at, reason)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.getStmt = db.prepare('SELECT * FROM approvals WHERE id = ?');
    this.byKeyStmt = db.prepare('SELECT * FROM approvals WHERE call_key = ?');
    this.listStmt = db.prepare('SELECT * FROM approvals WHERE (@status IS NULL OR status = @status) AND (@taskId IS NULL OR task_id = @taskId) ORDER BY requested_at, id');
    this.decideStmt = db.prepare("UPDATE approvals SET status = ?, decided_by = ?, decided_at = ?, reason = ? WHERE id = ? AND status = 'pending'");
  }

  async insert(a: ApprovalRecord): Promise<void> {
    this.insertStmt.run(a.id, a.taskId, a.agentId, a.callKey, a.tool, a.impact, JSON.stringify(a.input), a.status, a.requestedAt, a.decidedBy, a.decidedAt, a.reason);
  }

  async get(id: string): Promise<ApprovalRecord | undefined> {
    const row = this.getStmt.get(id);
    return row && toRecord(row);
  }

  async byCallKey(callKey: string): Promise<ApprovalRecord | undefined> {
    const row = this.byKeyStmt.get(callKey);
    return row && toRecord(row);
  }

  async list(query: { status?: ApprovalStatus; taskId?: string } = {}): Promise<ApprovalRecord[]> {
    return this.listStmt.all({ status: query.status ?? null, taskId: query.taskId ?? null }).map(toRecord);
  }

  async decide(id: string, d: { status: 'approved' | 'denied'; by: Operator; at: string; reason: string | null }): Promise<boolean> {
    return this.decideStmt.run(d.status, d.by, d.at, d.reason, id).changes === 1;
  }
}

function toRecord(row: ApprovalRow): ApprovalRecord {
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
