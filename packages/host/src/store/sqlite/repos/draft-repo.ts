import type { Database, Statement } from 'better-sqlite3';
import type { DraftRecord } from '../../records';
import type { DraftRepo } from '../../store';
import type { LargeValues } from '../../large-values';
import { DRAFT_COLUMNS, draftValues, toDraftRecord, type DraftRow } from '../../rows/draft-row';
import { insertSql } from '../../rows/table';


export class SqliteDraftRepo implements DraftRepo {
  private readonly insertStmt: Statement;
  private readonly getStmt: Statement<[string], DraftRow>;
  private readonly updateStmt: Statement;

  constructor(
    db: Database,
    private readonly values: LargeValues,
  ) {
    this.insertStmt = db.prepare(insertSql('drafts', DRAFT_COLUMNS, () => '?'));
    this.getStmt = db.prepare('SELECT * FROM drafts WHERE id = ?');
    this.updateStmt = db.prepare('UPDATE drafts SET content = ?, ops = ?, status = ?, updated_at = ? WHERE id = ?');
  }

  async insert(d: DraftRecord): Promise<void> {
    this.insertStmt.run(...draftValues(d));
  }

  async get(id: string): Promise<DraftRecord | undefined> {
    const row = this.getStmt.get(id);
    return row && toDraftRecord(row, this.values.parse);
  }

  async update(id: string, p: Pick<DraftRecord, 'content' | 'ops' | 'status' | 'updatedAt'>): Promise<void> {
    this.updateStmt.run(JSON.stringify(p.content), JSON.stringify(p.ops), p.status, p.updatedAt, id);
  }
}
