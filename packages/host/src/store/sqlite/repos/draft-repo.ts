import type { Database, Statement } from 'better-sqlite3';
import type { DraftRecord, DraftStatus, Json, Operator } from '../../records';
import type { DraftRepo } from '../../store';
import type { LargeValues } from '../../large-values';

interface DraftRow {
  id: string;
  resource_id: string;
  owner: string;
  base_revision: number;
  content: string;
  ops: string;
  status: string;
  created_at: string;
  updated_at: string;
}

export class SqliteDraftRepo implements DraftRepo {
  private readonly insertStmt: Statement;
  private readonly getStmt: Statement<[string], DraftRow>;
  private readonly updateStmt: Statement;

  constructor(
    db: Database,
    private readonly values: LargeValues,
  ) {
    this.insertStmt = db.prepare(
      `INSERT INTO drafts (id, resource_id, owner, base_revision, content, ops, status, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.getStmt = db.prepare('SELECT * FROM drafts WHERE id = ?');
    this.updateStmt = db.prepare('UPDATE drafts SET content = ?, ops = ?, status = ?, updated_at = ? WHERE id = ?');
  }

  async insert(d: DraftRecord): Promise<void> {
    this.insertStmt.run(
      d.id,
      d.resourceId,
      d.owner,
      d.baseRevision,
      JSON.stringify(d.content),
      JSON.stringify(d.ops),
      d.status,
      d.createdAt,
      d.updatedAt,
    );
  }

  async get(id: string): Promise<DraftRecord | undefined> {
    const row = this.getStmt.get(id);
    return row && toRecord(this.values, row);
  }

  async update(id: string, p: Pick<DraftRecord, 'content' | 'ops' | 'status' | 'updatedAt'>): Promise<void> {
    this.updateStmt.run(JSON.stringify(p.content), JSON.stringify(p.ops), p.status, p.updatedAt, id);
  }
}

function toRecord(values: LargeValues, row: DraftRow): DraftRecord {
  return {
    id: row.id,
    resourceId: row.resource_id,
    owner: row.owner as Operator,
    baseRevision: row.base_revision,
    content: values.parse(row.content),
    ops: values.parse<Json[]>(row.ops),
    status: row.status as DraftStatus,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
