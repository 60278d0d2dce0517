import type { Database, Statement } from 'better-sqlite3';
import type { Operator, SelectionRecord } from '../../records';
import type { SelectionRepo } from '../../store';
import { toSelectionRecord, type SelectionRow } from '../../rows/selection-row';

export class SqliteSelectionRepo implements SelectionRepo {
  private readonly putStmt: Statement;
  private readonly getStmt: Statement<[string, string], SelectionRow>;
  private readonly listStmt: Statement<[string], SelectionRow>;

  constructor(db: Database) {
    this.putStmt = db.prepare(
      `INSERT INTO selections (resource_id, person, selection, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (resource_id, person) DO UPDATE SET selection = excluded.selection, updated_at = excluded.updated_at`,
    );
    this.getStmt = db.prepare('SELECT * FROM selections WHERE resource_id = ? AND person = ?');
    this.listStmt = db.prepare('SELECT * FROM selections WHERE resource_id = ? ORDER BY person');
  }

  async put(s: SelectionRecord): Promise<void> {
    this.putStmt.run(s.resourceId, s.person, JSON.stringify(s.selection), s.updatedAt);
  }

  async get(resourceId: string, person: Operator): Promise<SelectionRecord | undefined> {
    const row = this.getStmt.get(resourceId, person);
    return row && toSelectionRecord(row);
  }

  async list(resourceId: string): Promise<SelectionRecord[]> {
    return this.listStmt.all(resourceId).map(toSelectionRecord);
  }
}
