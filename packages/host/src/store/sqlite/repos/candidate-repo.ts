import type { Database, Statement } from 'better-sqlite3';
import type { CandidateRecord, CandidateSource, CandidateStatus, Json, Operator } from '../../records';
import type { CandidateRepo } from '../../store';
import type { LargeValues } from '../../large-values';
import { selectWhere } from './query';

interface CandidateRow {
  id: string;
  resource_id: string;
  base_revision: number;
  ops: string;
  operator: string;
  source: string;
  draft_id: string | null;
  status: string;
  created_at: string;
  resolved_at: string | null;
  resolved_by: string | null;
  accepted_revision: number | null;
}

export class SqliteCandidateRepo implements CandidateRepo {
  private readonly insertStmt: Statement;
  private readonly getStmt: Statement<[string], CandidateRow>;
  private readonly resolveStmt: Statement;

  constructor(
    private readonly db: Database,
    private readonly values: LargeValues,
  ) {
    this.insertStmt = db.prepare(
      `INSERT INTO candidates (id, resource_id, base_revision, ops, operator, source, draft_id, status,
         created_at, resolved_at, resolved_by, accepted_revision)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.getStmt = db.prepare('SELECT * FROM candidates WHERE id = ?');
    this.resolveStmt = db.prepare(
      `UPDATE candidates SET status = ?, resolved_at = ?, resolved_by = ?, accepted_revision = ?
       WHERE id = ? AND status = 'open'`,
    );
  }

  async insert(c: CandidateRecord): Promise<void> {
    this.insertStmt.run(
      c.id,
      c.resourceId,
      c.baseRevision,
      JSON.stringify(c.ops),
      c.operator,
      c.source,
      c.draftId,
      c.status,
      c.createdAt,
      c.resolvedAt,
      c.resolvedBy,
      c.acceptedRevision,
    );
  }

  async get(id: string): Promise<CandidateRecord | undefined> {
    const row = this.getStmt.get(id);
    return row && toRecord(this.values, row);
  }

  async list(resourceId: string, status?: CandidateStatus): Promise<CandidateRecord[]> {
    const filters = [['resource_id = ?', resourceId], ['status = ?', status || undefined]] as const;
    return selectWhere<CandidateRow>(this.db, 'SELECT * FROM candidates', filters, 'ORDER BY rowid').map((row) => toRecord(this.values, row));
  }

  async resolve(
    id: string,
    r: { status: Exclude<CandidateStatus, 'open'>; resolvedAt: string; resolvedBy: Operator; acceptedRevision: number | null },
  ): Promise<boolean> {
    return this.resolveStmt.run(r.status, r.resolvedAt, r.resolvedBy, r.acceptedRevision, id).changes === 1;
  }
}

function toRecord(values: LargeValues, row: CandidateRow): CandidateRecord {
  return {
    id: row.id,
    resourceId: row.resource_id,
    baseRevision: row.base_revision,
    ops: values.parse<Json[]>(row.ops),
    operator: row.operator as Operator,
    source: row.source as CandidateSource,
    draftId: row.draft_id,
    status: row.status as CandidateStatus,
    createdAt: row.created_at,
    resolvedAt: row.resolved_at,
    resolvedBy: row.resolved_by as Operator | null,
    acceptedRevision: row.accepted_revision,
  };
}
