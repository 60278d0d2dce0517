import type { Database, Statement } from 'better-sqlite3';
import type { Json, Operator, RevisionAction, RevisionRecord } from '../../records';
import type { RevisionQuery, RevisionRepo } from '../../store';
import type { LargeValues } from '../../large-values';
import { selectWhere } from './query';

interface RevisionRow {
  resource_id: string;
  revision: number;
  action: string;
  op: string;
  operator: string;
  created_at: string;
}

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
    const filters = [
      ['resource_id = ?', resourceId],
      ['revision > ?', query.after],
      ['revision <= ?', query.upTo],
      ['operator <> ?', query.excludeOperator],
    ] as const;
    const select = 'SELECT resource_id, revision, action, op, operator, created_at FROM revisions';
    const rows = selectWhere<RevisionRow>(this.db, select, filters, 'ORDER BY revision LIMIT ?', [query.limit ?? -1]);
    return rows.map((row) => ({
      resourceId: row.resource_id,
      revision: row.revision,
      action: row.action as RevisionAction,
      op: this.values.parse(row.op),
      operator: row.operator as Operator,
      createdAt: row.created_at,
    }));
  }

  async snapshotAtOrBefore(resourceId: string, revision: number): Promise<{ revision: number; content: Json } | undefined> {
    const row = this.snapshotStmt.get(resourceId, revision);
    return row && { revision: row.revision, content: this.values.parse(row.snapshot) };
  }
}
