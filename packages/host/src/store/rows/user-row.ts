import type { UserRecord, UserRole } from '../user-records';

export interface UserRow {
  name: string;
  role: string;
  token_hash: string;
  created_at: string;
  revoked_at: string | null;
}

export function toUserRecord(row: UserRow): UserRecord {
  return { name: row.name, role: row.role as UserRole, tokenHash: row.token_hash, createdAt: row.created_at, revokedAt: row.revoked_at };
}
