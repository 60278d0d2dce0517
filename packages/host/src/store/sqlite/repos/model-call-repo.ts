import type { Database, Statement } from 'better-sqlite3';
import type { ModelCallRecord, ModelCallRepo } from '../../agent-records';

type Totals = { calls: number; inputTokens: number; outputTokens: number };

export class SqliteModelCallRepo implements ModelCallRepo {
  private readonly insertStmt: Statement;
  private readonly taskTotals: Statement<[string], Totals>;
  private readonly agentTotals: Statement<[string, string], Totals>;

  constructor(db: Database) {
    this.insertStmt = db.prepare(
      `INSERT INTO model_calls (task_id, agent_id, turn, model, input_tokens, output_tokens, finish_reason, latency_ms, attempts, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const totals = 'SELECT COUNT(*) AS calls, COALESCE(SUM(input_tokens), 0) AS inputTokens, COALESCE(SUM(output_tokens), 0) AS outputTokens FROM model_calls';
    this.taskTotals = db.prepare(`${totals} WHERE task_id = ?`);
    this.agentTotals = db.prepare(`${totals} WHERE task_id = ? AND agent_id = ?`);
  }

  async insert(r: ModelCallRecord): Promise<void> {
    this.insertStmt.run(r.taskId, r.agentId, r.turn, r.model, r.inputTokens, r.outputTokens, r.finishReason, Math.round(r.latencyMs), r.attempts, r.createdAt);
  }

  async totals(taskId: string, agentId?: string): Promise<Totals> {
    return (agentId === undefined ? this.taskTotals.get(taskId) : this.agentTotals.get(taskId, agentId))!;
  }
}
