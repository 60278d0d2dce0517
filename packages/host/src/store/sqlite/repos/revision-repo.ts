import type { Database, Statement } from 'better-sqlite3';
import type { Json, RevisionRecord } from '../../records';
import type { RevisionQuery, RevisionRepo } from '../../store';
import type { LargeValues } from '../../large-values';
import { REVISION_SELECT, revisionFilters, toRevisionRecord, type RevisionRow } from '../../rows/revision-row';
import { selectWhere, BOUND_LIMIT } from './query';

export class SqliteRevisionRepo implements RevisionRepo {
  private readonly insertStmt: Statement;
  private readonly snapshotStmt: Statement<[string, number], { revision: number; snapshot: string }>;

  constructor(
    private readonly db: Database,
    private readonly values: LargeValues,
  ) {
    this.insertStmt = db.prepare(
      'INSERT INTO revisions (resource_id, revision, action, op, operator, created_at, snapshot) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.snapshotStmt = db.prepare(
      `SELECT revision, snapshot FROM revisions
       WHERE resource_id = ? AND revision <= ? AND snapshot IS NOT NULL
       ORDER BY revision DESC LIMIT 1`,
    );
  }

  async insert(r: RevisionRecord, stored: { readonly op?: string; readonly snapshot?: string } = {}): Promise<void> {
    this.insertStmt.run(r.resourceId, r.revision, r.action, stored.op ?? JSON.stringify(r.op), r.operator, r.createdAt, stored.snapshot ?? null);
  }

  async list(resourceId: string, query: RevisionQuery = {}): Promise<RevisionRecord[]> {
    const rows = selectWhere<RevisionRow>(this.db, REVISION_SELECT, revisionFilters(resourceId, query), `ORDER BY revision ${BOUND_LIMIT}`, [query.limit ?? -1]);
    return rows.map((row) => toRevisionRecord(row, this.values.parse));
  }

  async snapshotAtOrBefore(resourceId: string, revision: number): Promise<{ revision: number; content: Json } | undefined> {
    const row = this.snapshotStmt.get(resourceId, revision);
    return row && { revision: row.revision, content: this.values.parse(row.snapshot) };
  }
}
