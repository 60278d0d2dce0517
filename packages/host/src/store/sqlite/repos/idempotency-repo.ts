import type { Database, Statement } from 'better-sqlite3';
import type { Json } from '../../records';
import type { IdempotencyRepo } from '../../store';
import { parseStored } from '../../../util/json';

export class SqliteIdempotencyRepo implements IdempotencyRepo {
  private readonly getStmt: Statement<[string], { result: string }>;
  private readonly putStmt: Statement;

  constructor(db: Database) {
    this.getStmt = db.prepare('SELECT result FROM idempotency WHERE key = ?');
    this.putStmt = db.prepare('INSERT INTO idempotency (key, result, created_at) VALUES (?, ?, ?)');
  }

  async get(key: string): Promise<Json | undefined> {
    const row = this.getStmt.get(key);
    return row && parseStored(row.result);
  }

  async put(key: string, result: Json, at: string): Promise<void> {
    this.putStmt.run(key, JSON.stringify(result), at);
  }
}
