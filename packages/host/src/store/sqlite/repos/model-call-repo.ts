import type { Database, Statement } from 'better-sqlite3';
import type { ModelCallRecord, ModelCallRepo } from '../../agent-records';
import { MODEL_CALL_COLUMNS, modelCallValues } from '../../rows/model-call-row';
import { insertSql } from '../../rows/table';

type Totals = { calls: number; inputTokens: number; outputTokens: number };

export class SqliteModelCallRepo implements ModelCallRepo {
  private readonly insertStmt: Statement;
  private readonly taskTotals: Statement<[string], Totals>;
  private readonly agentTotals: Statement<[string, string], Totals>;

  constructor(db: Database) {
    this.insertStmt = db.prepare(insertSql('model_calls', MODEL_CALL_COLUMNS, () => '?'));
    const totals = 'SELECT COUNT(*) AS calls, COALESCE(SUM(input_tokens), 0) AS inputTokens, COALESCE(SUM(output_tokens), 0) AS outputTokens FROM model_calls';
    this.taskTotals = db.prepare(`${totals} WHERE task_id = ?`);
    this.agentTotals = db.prepare(`${totals} WHERE task_id = ? AND agent_id = ?`);
  }

  async insert(r: ModelCallRecord): Promise<void> {
    this.insertStmt.run(...modelCallValues(r));
  }

  async totals(taskId: string, agentId?: string): Promise<Totals> {
    return (agentId === undefined ? this.taskTotals.get(taskId) : this.agentTotals.get(taskId, agentId))!;
  }
}
