import type { Database, Statement } from 'better-sqlite3';
import type { Json, ResourceRecord } from '../../records';
import type { ResourceRepo } from '../../store';
import type { LargeValues } from '../../large-values';
import { selectWhere } from './query';

interface ResourceRow {
  id: string;
  kind: string;
  revision: number;
  content: string;
  created_at: string;
  updated_at: string;
}

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
      'INSERT INTO resources (id, kind, revision, content, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.getStmt = db.prepare('SELECT * FROM resources WHERE id = ?');
    this.revisionStmt = db.prepare('SELECT revision FROM resources WHERE id = ?');
    this.advanceStmt = db.prepare(
      'UPDATE resources SET revision = ?, content = ?, updated_at = ? WHERE id = ? AND revision = ?',
    );
  }

  async insert(r: ResourceRecord, storedContent?: string): Promise<void> {
    this.insertStmt.run(r.id, r.kind, r.revision, storedContent ?? JSON.stringify(r.content), r.createdAt, r.updatedAt);
  }

  async get(id: string): Promise<ResourceRecord | undefined> {
    const row = this.getStmt.get(id);
    return row && toRecord(this.values, row);
  }

  async headRevision(id: string): Promise<number | undefined> {
    return this.revisionStmt.get(id)?.revision;
  }

  async list(options: { kind?: string; limit?: number } = {}): Promise<ResourceRecord[]> {
    const filters = [['kind = ?', options.kind || undefined]] as const;
    return selectWhere<ResourceRow>(this.db, 'SELECT * FROM resources', filters, 'ORDER BY created_at, id LIMIT ?', [options.limit ?? -1]).map((row) => toRecord(this.values, row));
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

function toRecord(values: LargeValues, row: ResourceRow): ResourceRecord {
  return {
    id: row.id,
    kind: row.kind,
    revision: row.revision,
    content: values.parse(row.content),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
