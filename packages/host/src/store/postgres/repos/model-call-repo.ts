import type { ModelCallRecord, ModelCallRepo } from '../../agent-records';
import { MODEL_CALL_COLUMNS, modelCallValues } from '../../rows/model-call-row';
import { insertSql } from '../../rows/table';
import type { PgSession } from '../session';
import { pgPlaceholder } from './placeholders';

type Totals = { calls: number; inputTokens: number; outputTokens: number; lastId: number };

const INSERT = insertSql('model_calls', MODEL_CALL_COLUMNS, pgPlaceholder);
// SUM of bigint is numeric (read as a string): cast back to bigint, read as a number.
const TOTALS =
  'SELECT COUNT(*) AS calls, COALESCE(SUM(input_tokens), 0)::bigint AS "inputTokens", COALESCE(SUM(output_tokens), 0)::bigint AS "outputTokens", COALESCE(MAX(id), $1)::bigint AS "lastId" FROM model_calls';

export class PgModelCallRepo implements ModelCallRepo {
  constructor(private readonly s: PgSession) {}

  async insert(r: ModelCallRecord): Promise<void> {
    await this.s.changes(INSERT, modelCallValues(r));
  }

  async totals(taskId: string, agentId?: string, afterId = 0): Promise<Totals> {
    const row =
      agentId === undefined
        ? await this.s.first<Totals>(`${TOTALS} WHERE task_id = $2 AND id > $1`, [afterId, taskId])
        : await this.s.first<Totals>(`${TOTALS} WHERE task_id = $2 AND agent_id = $3 AND id > $1`, [afterId, taskId, agentId]);
    return row!;
  }
}
