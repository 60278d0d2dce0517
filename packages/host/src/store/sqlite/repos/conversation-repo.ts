import type { Database, Statement } from 'better-sqlite3';
import type { ConversationRecord, ConversationRepo } from '../../agent-records';
import { toConversationRecord, type ConversationRow } from '../../rows/conversation-row';
import { BOUND_LIMIT } from './query';

export class SqliteConversationRepo implements ConversationRepo {
  private readonly appendStmt: Statement;
  private readonly listStmt: Statement<[string, string, number], ConversationRow>;
  private readonly lastStmt: Statement<[string, string], ConversationRow>;
  private readonly sourceStmt: Statement<[string, string, string], { n: number }>;
  private readonly recentStmt: Statement<[string, string, number, number, number], ConversationRow>;

  constructor(db: Database) {
    this.appendStmt = db.prepare(
      `INSERT INTO conversation (task_id, agent_id, seq, turn, message, source_message_id, created_at)
       VALUES (?, ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM conversation WHERE task_id = ? AND agent_id = ?), ?, ?, ?, ?)
       RETURNING seq`,
    );
    this.listStmt = db.prepare('SELECT * FROM conversation WHERE task_id = ? AND agent_id = ? AND seq > ? ORDER BY seq');
    this.lastStmt = db.prepare('SELECT * FROM conversation WHERE task_id = ? AND agent_id = ? ORDER BY seq DESC LIMIT 1');
    this.recentStmt = db.prepare(
      `SELECT * FROM conversation WHERE task_id = ? AND agent_id = ? AND seq > ? AND seq < ? ORDER BY seq DESC ${BOUND_LIMIT}`,
    );
    this.sourceStmt = db.prepare(
      'SELECT COUNT(*) AS n FROM conversation WHERE task_id = ? AND agent_id = ? AND source_message_id = ?',
    );
  }

  async append(r: Omit<ConversationRecord, 'seq'>): Promise<number> {
    const row = this.appendStmt.get(
      r.taskId,
      r.agentId,
      r.taskId,
      r.agentId,
      r.turn,
      JSON.stringify(r.message),
      r.sourceMessageId,
      r.createdAt,
    ) as { seq: number };
    return row.seq;
  }

  async list(taskId: string, agentId: string, afterSeq = 0): Promise<ConversationRecord[]> {
    return this.listStmt.all(taskId, agentId, afterSeq).map(toConversationRecord);
  }

  async recent(taskId: string, agentId: string, range: { afterSeq: number; beforeSeq?: number; limit: number }): Promise<ConversationRecord[]> {
    return this.recentStmt.all(taskId, agentId, range.afterSeq, range.beforeSeq ?? Number.MAX_SAFE_INTEGER, range.limit).map(toConversationRecord);
  }

  async last(taskId: string, agentId: string): Promise<ConversationRecord | undefined> {
    const row = this.lastStmt.get(taskId, agentId);
    return row && toConversationRecord(row);
  }

  async hasSource(taskId: string, agentId: string, sourceMessageId: string): Promise<boolean> {
    return (this.sourceStmt.get(taskId, agentId, sourceMessageId)?.n ?? 0) > 0;
  }
}
