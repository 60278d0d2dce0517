import type { Database, Statement } from 'better-sqlite3';
import type { CandidateRecord, CandidateStatus, Operator } from '../../records';
import type { CandidateRepo } from '../../store';
import type { LargeValues } from '../../large-values';
import { CANDIDATE_COLUMNS, candidateValues, toCandidateRecord, type CandidateRow } from '../../rows/candidate-row';
import { insertSql } from '../../rows/table';
import { selectWhere } from './query';

export class SqliteCandidateRepo implements CandidateRepo {
  private readonly insertStmt: Statement;
  private readonly getStmt: Statement<[string], CandidateRow>;
  private readonly resolveStmt: Statement;

  constructor(
    private readonly db: Database,
    private readonly values: LargeValues,
  ) {
    this.insertStmt = db.prepare(insertSql('candidates', CANDIDATE_COLUMNS, () => '?'));
    this.getStmt = db.prepare('SELECT * FROM candidates WHERE id = ?');
    this.resolveStmt = db.prepare(
      `UPDATE candidates SET status = ?, resolved_at = ?, resolved_by = ?, accepted_revision = ?
       WHERE id = ? AND status = 'open'`,
    );
  }

  async insert(c: CandidateRecord): Promise<void> {
    this.insertStmt.run(...candidateValues(c));
  }

  async get(id: string): Promise<CandidateRecord | undefined> {
    const row = this.getStmt.get(id);
    return row && toCandidateRecord(row, this.values.parse);
  }

  async list(resourceId: string, status?: CandidateStatus): Promise<CandidateRecord[]> {
    const filters = [['resource_id = ?', resourceId], ['status = ?', status || undefined]] as const;
    return selectWhere<CandidateRow>(this.db, 'SELECT * FROM candidates', filters, 'ORDER BY rowid').map((row) => toCandidateRecord(row, this.values.parse));
  }

  async resolve(
    id: string,
    r: { status: Exclude<CandidateStatus, 'open'>; resolvedAt: string; resolvedBy: Operator; acceptedRevision: number | null },
  ): Promise<boolean> {
    return this.resolveStmt.run(r.status, r.resolvedAt, r.resolvedBy, r.acceptedRevision, id).changes === 1;
  }
}
