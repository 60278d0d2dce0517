import type { Database, Statement } from 'better-sqlite3';
import type { UserRecord, UserRepo } from '../../user-records';
import { toUserRecord, type UserRow } from '../../rows/user-row';

export class SqliteUserRepo implements UserRepo {
  private readonly insertStmt: Statement;
  private readonly getStmt: Statement<[string], UserRow>;
  private readonly byHashStmt: Statement<[string], UserRow>;
  private readonly listStmt: Statement<[], UserRow>;
  private readonly revokeStmt: Statement<[string, string]>;

  constructor(db: Database) {
    this.insertStmt = db.prepare('INSERT INTO users (name, role, token_hash, created_at, revoked_at) VALUES (?, ?, ?, ?, ?)');
    this.getStmt = db.prepare('SELECT * FROM users WHERE name = ?');
    this.byHashStmt = db.prepare('SELECT * FROM users WHERE token_hash = ?');
    this.listStmt = db.prepare('SELECT * FROM users ORDER BY name');
    this.revokeStmt = db.prepare('UPDATE users SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL');
  }

  async insert(user: UserRecord): Promise<void> {
    this.insertStmt.run(user.name, user.role, user.tokenHash, user.createdAt, user.revokedAt);
  }

  async get(name: string): Promise<UserRecord | undefined> {
    const row = this.getStmt.get(name);
    return row && toUserRecord(row);
  }

  async byTokenHash(tokenHash: string): Promise<UserRecord | undefined> {
    const row = this.byHashStmt.get(tokenHash);
    return row && toUserRecord(row);
  }

  async list(): Promise<UserRecord[]> {
    return this.listStmt.all().map(toUserRecord);
  }

  async revoke(name: string, at: string): Promise<boolean> {
    return this.revokeStmt.run(at, name).changes === 1;
  }
}
