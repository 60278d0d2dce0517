import type { Database, Statement } from 'better-sqlite3';
import type { PublicationRecord, PublicationRepo } from '../../publication-records';
import { PUBLICATION_COLUMNS, publicationValues, toPublicationRecord, type PublicationRow } from '../../rows/publication-row';
import { insertSql } from '../../rows/table';

export class SqlitePublicationRepo implements PublicationRepo {
  private readonly insertStmt: Statement;
  private readonly getStmt: Statement<[string], PublicationRow>;
  private readonly byKeyStmt: Statement<[string], PublicationRow>;
  private readonly listStmt: Statement<[string], PublicationRow>;

  constructor(db: Database) {
    this.insertStmt = db.prepare(insertSql('publications', PUBLICATION_COLUMNS, () => '?'));
    this.getStmt = db.prepare('SELECT * FROM publications WHERE id = ?');
    this.byKeyStmt = db.prepare('SELECT * FROM publications WHERE idempotency_key = ?');
    this.listStmt = db.prepare('SELECT * FROM publications WHERE task_id = ? ORDER BY published_at, id');
  }

  async insert(p: PublicationRecord): Promise<void> {
    this.insertStmt.run(...publicationValues(p));
  }

  async get(id: string): Promise<PublicationRecord | undefined> {
    const row = this.getStmt.get(id);
    return row && toPublicationRecord(row);
  }

  async byIdempotencyKey(key: string): Promise<PublicationRecord | undefined> {
    const row = this.byKeyStmt.get(key);
    return row && toPublicationRecord(row);
  }

  async list(taskId: string): Promise<PublicationRecord[]> {
    return this.listStmt.all(taskId).map(toPublicationRecord);
  }
}
