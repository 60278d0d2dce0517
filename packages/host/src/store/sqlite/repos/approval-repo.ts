import type { Database, Statement } from 'better-sqlite3';
import type { ApprovalRecord, ApprovalRepo, ApprovalStatus } from '../../approval-records';
import type { Operator } from '../../records';
import { APPROVAL_COLUMNS, approvalValues, toApprovalRecord, type ApprovalRow } from '../../rows/approval-row';
import { insertSql } from '../../rows/table';

export class SqliteApprovalRepo implements ApprovalRepo {
  private readonly insertStmt: Statement;
  private readonly getStmt: Statement<[string], ApprovalRow>;
  private readonly byKeyStmt: Statement<[string], ApprovalRow>;
  private readonly listStmt: Statement<[{ status: string | null; taskId: string | null }], ApprovalRow>;
  private readonly decideStmt: Statement<[string, string, string, string | null, string]>;

  constructor(db: Database) {
    this.insertStmt = db.prepare(insertSql('approvals', APPROVAL_COLUMNS, () => '?'));
    this.getStmt = db.prepare('SELECT * FROM approvals WHERE id = ?');
    this.byKeyStmt = db.prepare('SELECT * FROM approvals WHERE call_key = ?');
    this.listStmt = db.prepare('SELECT * FROM approvals WHERE (@status IS NULL OR status = @status) AND (@taskId IS NULL OR task_id = @taskId) ORDER BY requested_at, id');
    this.decideStmt = db.prepare("UPDATE approvals SET status = ?, decided_by = ?, decided_at = ?, reason = ? WHERE id = ? AND status = 'pending'");
  }

  async insert(a: ApprovalRecord): Promise<void> {
    this.insertStmt.run(...approvalValues(a));
  }

  async get(id: string): Promise<ApprovalRecord | undefined> {
    const row = this.getStmt.get(id);
    return row && toApprovalRecord(row);
  }

  async byCallKey(callKey: string): Promise<ApprovalRecord | undefined> {
    const row = this.byKeyStmt.get(callKey);
    return row && toApprovalRecord(row);
  }

  async list(query: { status?: ApprovalStatus; taskId?: string } = {}): Promise<ApprovalRecord[]> {
    return this.listStmt.all({ status: query.status ?? null, taskId: query.taskId ?? null }).map(toApprovalRecord);
  }

  async decide(id: string, d: { status: 'approved' | 'denied'; by: Operator; at: string; reason: string | null }): Promise<boolean> {
    return this.decideStmt.run(d.status, d.by, d.at, d.reason, id).changes === 1;
  }
}
