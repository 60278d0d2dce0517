import type { UserRecord, UserRepo } from '../../user-records';
import { toUserRecord, type UserRow } from '../../rows/user-row';
import type { PgSession } from '../session';

export class PgUserRepo implements UserRepo {
  constructor(private readonly s: PgSession) {}

  async insert(u: UserRecord): Promise<void> {
    await this.s.changes('INSERT INTO users (name, role, token_hash, created_at, revoked_at) VALUES ($1, $2, $3, $4, $5)', [u.name, u.role, u.tokenHash, u.createdAt, u.revokedAt]);
  }

  async get(name: string): Promise<UserRecord | undefined> {
    const row = await this.s.first<UserRow>('SELECT * FROM users WHERE name = $1', [name]);
    return row && toUserRecord(row);
  }

  async byTokenHash(tokenHash: string): Promise<UserRecord | undefined> {
    const row = await this.s.first<UserRow>('SELECT * FROM users WHERE token_hash = $1', [tokenHash]);
    return row && toUserRecord(row);
  }

  async list(): Promise<UserRecord[]> {
    return (await this.s.rows<UserRow>('SELECT * FROM users ORDER BY name')).map(toUserRecord);
  }

  async revoke(name: string, at: string): Promise<boolean> {
    return (await this.s.changes('UPDATE users SET revoked_at = $1 WHERE name = $2 AND revoked_at IS NULL', [at, name])) === 1;
  }
}
