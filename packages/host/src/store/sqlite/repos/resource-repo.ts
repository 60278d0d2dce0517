import type { Database, Statement } from 'better-sqlite3';
import type { Json, ResourceRecord } from '../../records';
import type { ResourceRepo } from '../../store';
import type { LargeValues } from '../../large-values';
import { toResourceRecord, type ResourceRow } from '../../rows/resource-row';
import { selectWhere, BOUND_LIMIT } from './query';

export class SqliteResourceRepo implements ResourceRepo {
  private readonly insertStmt: Statement;
  private readonly getStmt: Statement<[string], ResourceRow>;
  private readonly advanceStmt: Statement;
  private readonly revisionStmt: Statement<[string], { revision: number }>;

  constructor(
    private readonly db: Database,
    private readonly values: LargeValues,
  ) {
    this.insertStmt = db.prepare(
      'INSERT INTO resources (id, kind, revision, content, title, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.getStmt = db.prepare('SELECT * FROM resources WHERE id = ?');
    this.revisionStmt = db.prepare('SELECT revision FROM resources WHERE id = ?');
    this.advanceStmt = db.prepare(
      'UPDATE resources SET revision = ?, content = ?, updated_at = ? WHERE id = ? AND revision = ?',
    );
  }

  async insert(r: ResourceRecord, storedContent?: string): Promise<void> {
    this.insertStmt.run(r.id, r.kind, r.revision, storedContent ?? JSON.stringify(r.content), r.title ?? null, r.createdAt, r.updatedAt);
  }

  async get(id: string): Promise<ResourceRecord | undefined> {
    const row = this.getStmt.get(id);
    return row && toResourceRecord(row, this.values.parse);
  }

  async headRevision(id: string): Promise<number | undefined> {
    return this.revisionStmt.get(id)?.revision;
  }

  async list(options: { kind?: string; limit?: number } = {}): Promise<ResourceRecord[]> {
    const filters = [['kind = ?', options.kind || undefined]] as const;
    return selectWhere<ResourceRow>(this.db, 'SELECT * FROM resources', filters, `ORDER BY created_at, id ${BOUND_LIMIT}`, [options.limit ?? -1]).map((row) => toResourceRecord(row, this.values.parse));
  }

  async advanceHead(
    id: string,
    expectedRevision: number,
    next: { revision: number; content: Json; updatedAt: string; serialized?: string },
  ): Promise<boolean> {
    const text = next.serialized ?? JSON.stringify(next.content);
    const result = this.advanceStmt.run(next.revision, text, next.updatedAt, id, expectedRevision);
    return result.changes === 1;
  }
}
