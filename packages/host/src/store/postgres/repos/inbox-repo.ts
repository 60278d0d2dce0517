import type { InboxPost, InboxRecord, InboxRepo } from '../../agent-records';
import { toInboxPost, toInboxRecord, type InboxPostRow, type InboxRow } from '../../rows/inbox-row';
import { CHANNELS } from '../commit-listener';
import type { PgSession } from '../session';

export class PgInboxRepo implements InboxRepo {
  constructor(private readonly s: PgSession) {}

  /** Announces the new row to every host (its seq on cowork_inbox), which wakes a recipient parked there. */
  async insert(r: Omit<InboxRecord, 'seq' | 'leaseOwner' | 'leaseUntil' | 'consumedAt'>): Promise<boolean> {
    const sql = `WITH added AS (
                   INSERT INTO inbox (message_id, task_id, recipient, sender, kind, body, created_at)
                   VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (message_id) DO NOTHING RETURNING seq)
                 SELECT seq, pg_notify('${CHANNELS.inbox}', seq::text) FROM added`;
    return (await this.s.rows(sql, [r.messageId, r.taskId, r.recipient, r.sender, r.kind, JSON.stringify(r.body), r.createdAt])).length === 1;
  }

  /** One statement: picks the leasable messages and leases them, oldest first. */
  async lease(q: { taskId: string; recipient: string; owner: string; nowMs: number; leaseUntilMs: number; limit: number }): Promise<InboxRecord[]> {
    const rows = await this.s.rows<InboxRow>(
      `UPDATE inbox SET lease_owner = $1, lease_until = $2 WHERE seq IN (
         SELECT seq FROM inbox WHERE task_id = $3 AND recipient = $4 AND consumed_at IS NULL
           AND (lease_until IS NULL OR lease_until <= $5) ORDER BY seq LIMIT $6)
       RETURNING *`,
      [q.owner, q.leaseUntilMs, q.taskId, q.recipient, q.nowMs, q.limit],
    );
    return rows.sort((a, b) => a.seq - b.seq).map(toInboxRecord);
  }

  async consume(messageId: string, at: string): Promise<boolean> {
    return (await this.s.changes('UPDATE inbox SET consumed_at = $1 WHERE message_id = $2 AND consumed_at IS NULL', [at, messageId])) === 1;
  }

  async pending(taskId: string, recipient?: string): Promise<InboxRecord[]> {
    const rows = recipient
      ? await this.s.rows<InboxRow>('SELECT * FROM inbox WHERE task_id = $1 AND recipient = $2 AND consumed_at IS NULL ORDER BY seq', [taskId, recipient])
      : await this.s.rows<InboxRow>('SELECT * FROM inbox WHERE task_id = $1 AND consumed_at IS NULL ORDER BY seq', [taskId]);
    return rows.map(toInboxRecord);
  }

  async get(messageId: string): Promise<InboxRecord | undefined> {
    const row = await this.s.first<InboxRow>('SELECT * FROM inbox WHERE message_id = $1', [messageId]);
    return row && toInboxRecord(row);
  }

  async after(afterSeq: number, limit: number): Promise<InboxPost[]> {
    const rows = await this.s.rows<InboxPostRow>('SELECT seq, message_id, task_id, recipient, kind, consumed_at FROM inbox WHERE seq > $1 ORDER BY seq LIMIT $2', [afterSeq, limit]);
    return rows.map(toInboxPost);
  }

  async lastSeq(): Promise<number> {
    return (await this.s.first<{ seq: number | null }>('SELECT MAX(seq) AS seq FROM inbox'))?.seq ?? 0;
  }
}
