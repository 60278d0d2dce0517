import type { ConversationRecord, ConversationRepo } from '../../agent-records';
import { toConversationRecord, type ConversationRow } from '../../rows/conversation-row';
import type { PgSession } from '../session';

export class PgConversationRepo implements ConversationRepo {
  constructor(private readonly s: PgSession) {}

  async append(r: Omit<ConversationRecord, 'seq'>): Promise<number> {
    const row = await this.s.first<{ seq: number }>(
      `INSERT INTO conversation (task_id, agent_id, seq, turn, message, source_message_id, created_at)
       SELECT $1, $2, COALESCE(MAX(seq), 0) + 1, $3, $4, $5, $6 FROM conversation WHERE task_id = $1 AND agent_id = $2
       RETURNING seq`,
      [r.taskId, r.agentId, r.turn, JSON.stringify(r.message), r.sourceMessageId, r.createdAt],
    );
    return row!.seq;
  }

  async list(taskId: string, agentId: string, afterSeq = 0): Promise<ConversationRecord[]> {
    return (await this.s.rows<ConversationRow>('SELECT * FROM conversation WHERE task_id = $1 AND agent_id = $2 AND seq > $3 ORDER BY seq', [taskId, agentId, afterSeq])).map(toConversationRecord);
  }

  async recent(taskId: string, agentId: string, range: { afterSeq: number; beforeSeq?: number; limit: number }): Promise<ConversationRecord[]> {
    const sql = 'SELECT * FROM conversation WHERE task_id = $1 AND agent_id = $2 AND seq > $3 AND seq < $4 ORDER BY seq DESC LIMIT $5';
    return (await this.s.rows<ConversationRow>(sql, [taskId, agentId, range.afterSeq, range.beforeSeq ?? Number.MAX_SAFE_INTEGER, range.limit])).map(toConversationRecord);
  }

  async last(taskId: string, agentId: string): Promise<ConversationRecord | undefined> {
    const row = await this.s.first<ConversationRow>('SELECT * FROM conversation WHERE task_id = $1 AND agent_id = $2 ORDER BY seq DESC LIMIT 1', [taskId, agentId]);
    return row && toConversationRecord(row);
  }

  async hasSource(taskId: string, agentId: string, sourceMessageId: string): Promise<boolean> {
    const row = await this.s.first('SELECT 1 FROM conversation WHERE task_id = $1 AND agent_id = $2 AND source_message_id = $3', [taskId, agentId, sourceMessageId]);
    return row !== undefined;
  }
}
