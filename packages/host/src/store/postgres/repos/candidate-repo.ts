import type { CandidateRecord, CandidateStatus, Operator } from '../../records';
import type { CandidateRepo } from '../../store';
import { CANDIDATE_COLUMNS, candidateValues, toCandidateRecord, type CandidateRow } from '../../rows/candidate-row';
import { insertSql } from '../../rows/table';
import { parseStored } from '../../../util/json';
import type { PgSession } from '../session';
import { pgPlaceholder } from './placeholders';

const INSERT = insertSql('candidates', CANDIDATE_COLUMNS, pgPlaceholder);

export class PgCandidateRepo implements CandidateRepo {
  constructor(private readonly s: PgSession) {}

  async insert(c: CandidateRecord): Promise<void> {
    await this.s.changes(INSERT, candidateValues(c));
  }

  async get(id: string): Promise<CandidateRecord | undefined> {
    const row = await this.s.first<CandidateRow>('SELECT * FROM candidates WHERE id = $1', [id]);
    return row && toCandidateRecord(row, parseStored);
  }

  async list(resourceId: string, status?: CandidateStatus): Promise<CandidateRecord[]> {
    const rows = await this.s.selectWhere<CandidateRow>('SELECT * FROM candidates', [['resource_id = ?', resourceId], ['status = ?', status || undefined]], 'ORDER BY pos');
    return rows.map((row) => toCandidateRecord(row, parseStored));
  }

  async resolve(id: string, r: { status: Exclude<CandidateStatus, 'open'>; resolvedAt: string; resolvedBy: Operator; acceptedRevision: number | null }): Promise<boolean> {
    const sql = "UPDATE candidates SET status = $1, resolved_at = $2, resolved_by = $3, accepted_revision = $4 WHERE id = $5 AND status = 'open'";
    return (await this.s.changes(sql, [r.status, r.resolvedAt, r.resolvedBy, r.acceptedRevision, id])) === 1;
  }
}
