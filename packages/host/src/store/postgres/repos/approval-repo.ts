import type { ApprovalRecord, ApprovalRepo, ApprovalStatus } from '../../approval-records';
import type { Operator } from '../../records';
import { APPROVAL_COLUMNS, approvalValues, toApprovalRecord, type ApprovalRow } from '../../rows/approval-row';
import { insertSql } from '../../rows/table';
import type { PgSession } from '../session';
import { pgPlaceholder } from './placeholders';

const INSERT = insertSql('approvals', APPROVAL_COLUMNS, pgPlaceholder);

export class PgApprovalRepo implements ApprovalRepo {
  constructor(private readonly s: PgSession) {}

  async insert(a: ApprovalRecord): Promise<void> {
    await this.s.changes(INSERT, approvalValues(a));
  }

  async get(id: string): Promise<ApprovalRecord | undefined> {
    const row = await this.s.first<ApprovalRow>('SELECT * FROM approvals WHERE id = $1', [id]);
    return row && toApprovalRecord(row);
  }

  async byCallKey(callKey: string): Promise<ApprovalRecord | undefined> {
    const row = await this.s.first<ApprovalRow>('SELECT * FROM approvals WHERE call_key = $1', [callKey]);
    return row && toApprovalRecord(row);
  }

  async list(query: { status?: ApprovalStatus; taskId?: string } = {}): Promise<ApprovalRecord[]> {
    const rows = await this.s.selectWhere<ApprovalRow>('SELECT * FROM approvals', [['status = ?', query.status], ['task_id = ?', query.taskId]], 'ORDER BY requested_at, id');
    return rows.map(toApprovalRecord);
  }

  async decide(id: string, d: { status: 'approved' | 'denied'; by: Operator; at: string; reason: string | null }): Promise<boolean> {
    const sql = "UPDATE approvals SET status = $1, decided_by = $2, decided_at = $3, reason = $4 WHERE id = $5 AND status = 'pending'";
    return (await this.s.changes(sql, [d.status, d.by, d.at, d.reason, id])) === 1;
  }
}
