import type { Database, Statement } from 'better-sqlite3';
import type { ModelCallRecord, ModelCallRepo } from '../../agent-records';
import { MODEL_CALL_COLUMNS, modelCallValues } from '../../rows/model-call-row';
import { insertSql } from '../../rows/table';

type Totals = { calls: number; inputTokens: number; outputTokens: number; lastId: number };

export class SqliteModelCallRepo implements ModelCallRepo {
  private readonly insertStmt: Statement;
  private readonly taskTotals: Statement<[number, string, number], Totals>;
  private readonly agentTotals: Statement<[number, string, string, number], Totals>;

  constructor(db: Database) {
    this.insertStmt = db.prepare(insertSql('model_calls', MODEL_CALL_COLUMNS, () => '?'));
    const totals = 'SELECT COUNT(*) AS calls, COALESCE(SUM(input_tokens), 0) AS inputTokens, COALESCE(SUM(output_tokens), 0) AS outputTokens, COALESCE(MAX(id), ?) AS lastId FROM model_calls';
    this.taskTotals = db.prepare(`${totals} WHERE task_id = ? AND id > ?`);
    this.agentTotals = db.prepare(`${totals} WHERE task_id = ? AND agent_id = ? AND id > ?`);
  }

  async insert(r: ModelCallRecord): Promise<void> {
    this.insertStmt.run(...modelCallValues(r));
  }

  async totals(taskId: string, agentId?: string, afterId = 0): Promise<Totals> {
    return (agentId === undefined ? this.taskTotals.get(afterId, taskId, afterId) : this.agentTotals.get(afterId, taskId, agentId, afterId))!;
  }
}
