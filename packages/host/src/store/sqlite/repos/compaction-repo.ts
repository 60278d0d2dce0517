import type { Database, Statement } from 'better-sqlite3';
import type { CompactionRecord, CompactionRepo } from '../../agent-records';
import { toCompactionRecord, type CompactionRow } from '../../rows/compaction-row';

export class SqliteCompactionRepo implements CompactionRepo {
  private readonly insertStmt: Statement;
  private readonly listStmt: Statement<[string, string], CompactionRow>;
  private readonly latestStmt: Statement<[string, string], CompactionRow>;

  constructor(db: Database) {
    this.insertStmt = db.prepare(
      `INSERT INTO compactions (task_id, agent_id, seq, summarised_to_seq, summary, dropped, created_at)
       VALUES (?, ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM compactions WHERE task_id = ? AND agent_id = ?), ?, ?, ?, ?)
       RETURNING seq`,
    );
    this.listStmt = db.prepare('SELECT * FROM compactions WHERE task_id = ? AND agent_id = ? ORDER BY seq');
    this.latestStmt = db.prepare('SELECT * FROM compactions WHERE task_id = ? AND agent_id = ? ORDER BY seq DESC LIMIT 1');
  }

  async insert(r: Omit<CompactionRecord, 'seq'>): Promise<number> {
    const row = this.insertStmt.get(
      r.taskId,
      r.agentId,
      r.taskId,
      r.agentId,
      r.summarisedToSeq,
      r.summary,
      JSON.stringify(r.dropped),
      r.createdAt,
    ) as { seq: number };
    return row.seq;
  }

  async latest(taskId: string, agentId: string): Promise<CompactionRecord | undefined> {
    const row = this.latestStmt.get(taskId, agentId);
    return row && toCompactionRecord(row);
  }

  async list(taskId: string, agentId: string): Promise<CompactionRecord[]> {
    return this.listStmt.all(taskId, agentId).map(toCompactionRecord);
  }
}
