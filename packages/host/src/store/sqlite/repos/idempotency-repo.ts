import type { Database, Statement } from 'better-sqlite3';
import type { IdempotencyRecord, IdempotencyRepo } from '../../store';
import { parseStored } from '../../../util/json';

export class SqliteIdempotencyRepo implements IdempotencyRepo {
  private readonly getStmt: Statement<[string, string], { fingerprint: string; result: string }>;
  private readonly putStmt: Statement<[string, string, string, string, string]>;

  constructor(db: Database) {
    this.getStmt = db.prepare('SELECT fingerprint, result FROM idempotency WHERE scope = ? AND key = ?');
    this.putStmt = db.prepare('INSERT INTO idempotency (scope, key, fingerprint, result, created_at) VALUES (?, ?, ?, ?, ?)');
  }

  async get(scope: string, key: string): Promise<IdempotencyRecord | undefined> {
    const row = this.getStmt.get(scope, key);
    return row && { scope, key, fingerprint: row.fingerprint, result: parseStored(row.result) };
  }

  async put(record: IdempotencyRecord & { readonly at: string }): Promise<void> {
    this.putStmt.run(record.scope, record.key, record.fingerprint, JSON.stringify(record.result), record.at);
  }
}
