import type { LeaseRecord } from '../lease-records';

export interface LeaseRow {
  key: string;
  holder: string;
  acquired_at: number;
  expires_at: number;
  now: number;
}

export function toLeaseRecord(row: LeaseRow): LeaseRecord {
  return { key: row.key, holder: row.holder, acquiredAt: Number(row.acquired_at), expiresAt: Number(row.expires_at), now: Number(row.now) };
}
