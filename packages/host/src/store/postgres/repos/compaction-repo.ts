import type { CompactionRecord, CompactionRepo } from '../../agent-records';
import { toCompactionRecord, type CompactionRow } from '../../rows/compaction-row';
import type { PgSession } from '../session';

export class PgCompactionRepo implements CompactionRepo {
  constructor(private readonly s: PgSession) {}

  async insert(r: Omit<CompactionRecord, 'seq'>): Promise<number> {
    const row = await this.s.first<{ seq: number }>(
      `INSERT INTO compactions (task_id, agent_id, seq, summarised_to_seq, summary, dropped, created_at)
       SELECT $1, $2, COALESCE(MAX(seq), 0) + 1, $3, $4, $5, $6 FROM compactions WHERE task_id = $1 AND agent_id = $2
       RETURNING seq`,
      [r.taskId, r.agentId, r.summarisedToSeq, r.summary, JSON.stringify(r.dropped), r.createdAt],
    );
    return row!.seq;
  }

  async latest(taskId: string, agentId: string): Promise<CompactionRecord | undefined> {
    const row = await this.s.first<CompactionRow>('SELECT * FROM compactions WHERE task_id = $1 AND agent_id = $2 ORDER BY seq DESC LIMIT 1', [taskId, agentId]);
    return row && toCompactionRecord(row);
  }

  async list(taskId: string, agentId: string): Promise<CompactionRecord[]> {
    return (await this.s.rows<CompactionRow>('SELECT * FROM compactions WHERE task_id = $1 AND agent_id = $2 ORDER BY seq', [taskId, agentId])).map(toCompactionRecord);
  }
}
