import type { InboxRecord, InboxRepo } from '../../agent-records';
import { toInboxRecord, type InboxRow } from '../../rows/inbox-row';
import type { PgSession } from '../session';

export class PgInboxRepo implements InboxRepo {
  constructor(private readonly s: PgSession) {}

  async insert(r: Omit<InboxRecord, 'seq' | 'leaseOwner' | 'leaseUntil' | 'consumedAt'>): Promise<boolean> {
    const sql = `INSERT INTO inbox (message_id, task_id, recipient, sender, kind, body, created_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (message_id) DO NOTHING`;
    return (await this.s.changes(sql, [r.messageId, r.taskId, r.recipient, r.sender, r.kind, JSON.stringify(r.body), r.createdAt])) === 1;
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
}
