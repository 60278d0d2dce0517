import type { Database, Statement } from 'better-sqlite3';
import type { InboxKind, InboxRecord, InboxRepo } from '../../agent-records';
import { parseStored } from '../../../util/json';
import { prepared } from './query';

interface InboxRow {
  seq: number;
  message_id: string;
  task_id: string;
  recipient: string;
  sender: string;
  kind: string;
  body: string;
  created_at: string;
  lease_owner: string | null;
  lease_until: number | null;
  consumed_at: string | null;
}

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
         AND (lease_until IS NULL OR lease_until <= ?) ORDER BY seq LIMIT ?`,
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
    return rows.map((row) => toRecord({ ...row, lease_owner: q.owner, lease_until: q.leaseUntilMs }));
  }

  async consume(messageId: string, at: string): Promise<boolean> {
    return this.consumeStmt.run(at, messageId).changes === 1;
  }

  async pending(taskId: string, recipient?: string): Promise<InboxRecord[]> {
    const rows = recipient
      ? prepared(this.db, 'SELECT * FROM inbox WHERE task_id = ? AND recipient = ? AND consumed_at IS NULL ORDER BY seq').all(taskId, recipient)
      : prepared(this.db, 'SELECT * FROM inbox WHERE task_id = ? AND consumed_at IS NULL ORDER BY seq').all(taskId);
    return (rows as InboxRow[]).map(toRecord);
  }

  async get(messageId: string): Promise<InboxRecord | undefined> {
    const row = this.getStmt.get(messageId);
    return row && toRecord(row);
  }
}

function toRecord(row: InboxRow): InboxRecord {
  return {
    seq: row.seq,
    messageId: row.message_id,
    taskId: row.task_id,
    recipient: row.recipient,
    sender: row.sender,
    kind: row.kind as InboxKind,
    body: parseStored(row.body),
    createdAt: row.created_at,
    leaseOwner: row.lease_owner,
    leaseUntil: row.lease_until,
    consumedAt: row.consumed_at,
  };
}
