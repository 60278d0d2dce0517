import type { Database, Statement } from 'better-sqlite3';
import type { InboxPost, InboxRecord, InboxRepo } from '../../agent-records';
import { toInboxPost, toInboxRecord, type InboxPostRow, type InboxRow } from '../../rows/inbox-row';
import { prepared, BOUND_LIMIT } from './query';

export class SqliteInboxRepo implements InboxRepo {
  private readonly insertStmt: Statement;
  private readonly leasableStmt: Statement<[string, string, number, number], InboxRow>;
  private readonly leaseStmt: Statement;
  private readonly consumeStmt: Statement;
  private readonly getStmt: Statement<[string], InboxRow>;

  constructor(private readonly db: Database) {
    this.insertStmt = db.prepare(
      `INSERT INTO inbox (message_id, task_id, recipient, sender, kind, body, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (message_id) DO NOTHING`,
    );
    this.leasableStmt = db.prepare(
      `SELECT * FROM inbox WHERE task_id = ? AND recipient = ? AND consumed_at IS NULL
         AND (lease_until IS NULL OR lease_until <= ?) ORDER BY seq ${BOUND_LIMIT}`,
    );
    this.leaseStmt = db.prepare('UPDATE inbox SET lease_owner = ?, lease_until = ? WHERE seq = ?');
    this.consumeStmt = db.prepare('UPDATE inbox SET consumed_at = ? WHERE message_id = ? AND consumed_at IS NULL');
    this.getStmt = db.prepare('SELECT * FROM inbox WHERE message_id = ?');
  }

  async insert(r: Omit<InboxRecord, 'seq' | 'leaseOwner' | 'leaseUntil' | 'consumedAt'>): Promise<boolean> {
    const result = this.insertStmt.run(r.messageId, r.taskId, r.recipient, r.sender, r.kind, JSON.stringify(r.body), r.createdAt);
    return result.changes === 1;
  }

  async lease(q: { taskId: string; recipient: string; owner: string; nowMs: number; leaseUntilMs: number; limit: number }): Promise<InboxRecord[]> {
    const rows = this.leasableStmt.all(q.taskId, q.recipient, q.nowMs, q.limit);
    for (const row of rows) this.leaseStmt.run(q.owner, q.leaseUntilMs, row.seq);
    return rows.map((row) => toInboxRecord({ ...row, lease_owner: q.owner, lease_until: q.leaseUntilMs }));
  }

  async consume(messageId: string, at: string): Promise<boolean> {
    return this.consumeStmt.run(at, messageId).changes === 1;
  }

  async pending(taskId: string, recipient?: string): Promise<InboxRecord[]> {
    const rows = recipient
      ? prepared(this.db, 'SELECT * FROM inbox WHERE task_id = ? AND recipient = ? AND consumed_at IS NULL ORDER BY seq').all(taskId, recipient)
      : prepared(this.db, 'SELECT * FROM inbox WHERE task_id = ? AND consumed_at IS NULL ORDER BY seq').all(taskId);
    return (rows as InboxRow[]).map(toInboxRecord);
  }

  async get(messageId: string): Promise<InboxRecord | undefined> {
    const row = this.getStmt.get(messageId);
    return row && toInboxRecord(row);
  }

  async after(afterSeq: number, limit: number): Promise<InboxPost[]> {
    const rows = prepared(this.db, `SELECT seq, message_id, task_id, recipient, kind, consumed_at FROM inbox WHERE seq > ? ORDER BY seq ${BOUND_LIMIT}`).all(afterSeq, limit);
    return (rows as InboxPostRow[]).map(toInboxPost);
  }

  async lastSeq(): Promise<number> {
    return (prepared(this.db, 'SELECT MAX(seq) AS seq FROM inbox').get() as { seq: number | null }).seq ?? 0;
  }
}
