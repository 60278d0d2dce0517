import type { MetricPoint, RunRecord, RunRepo } from '../../run-records';
import { RUN_COLUMNS, RUN_UPDATED_COLUMNS, runValues, toMetricPoint, toRunRecord, type PointRow, type RunRow } from '../../rows/run-row';
import { insertSql } from '../../rows/table';
import type { PgSession } from '../session';
import { pgPlaceholder } from './placeholders';

const INSERT = insertSql('runs', RUN_COLUMNS, pgPlaceholder);
const UPDATE = `UPDATE runs SET ${RUN_UPDATED_COLUMNS.map((c, i) => `${c} = $${i + 2}`).join(', ')} WHERE id = $1`;

export class PgRunRepo implements RunRepo {
  constructor(private readonly s: PgSession) {}

  async insert(r: RunRecord): Promise<void> {
    const values = runValues(r);
    await this.s.changes(INSERT, RUN_COLUMNS.map((c) => values[c]));
  }

  async get(id: string): Promise<RunRecord | undefined> {
    const row = await this.s.first<RunRow>('SELECT * FROM runs WHERE id = $1', [id]);
    return row && toRunRecord(row);
  }

  async list(taskId: string): Promise<RunRecord[]> {
    return (await this.s.rows<RunRow>('SELECT * FROM runs WHERE task_id = $1 ORDER BY started_at DESC, id DESC', [taskId])).map(toRunRecord);
  }

  async update(r: RunRecord): Promise<void> {
    const values = runValues(r);
    await this.s.changes(UPDATE, [r.id, ...RUN_UPDATED_COLUMNS.map((c) => values[c])]);
  }

  async delete(id: string): Promise<void> {
    await this.s.changes('WITH points AS (DELETE FROM run_points WHERE run_id = $1) DELETE FROM runs WHERE id = $1', [id]);
  }

  /** One statement: the points numbered on from the run's last, in the order given. */
  async appendPoints(runId: string, points: readonly MetricPoint[]): Promise<void> {
    if (points.length === 0) return;
    await this.s.changes(
      `INSERT INTO run_points (run_id, seq, name, step, value, at)
       SELECT $1, last.seq + p.n, p.name, p.step, p.value, p.at
       FROM (SELECT COALESCE(MAX(seq), 0) AS seq FROM run_points WHERE run_id = $1) AS last,
            unnest($2::text[], $3::bigint[], $4::float8[], $5::text[]) WITH ORDINALITY AS p(name, step, value, at, n)`,
      [runId, points.map((p) => p.name), points.map((p) => p.step), points.map((p) => p.value), points.map((p) => p.at)]
    );
  }

  async series(runId: string, name: string, limit = 1000): Promise<MetricPoint[]> {
    const rows = await this.s.rows<PointRow>(
      'SELECT name, step, value, at FROM (SELECT * FROM run_points WHERE run_id = $1 AND name = $2 ORDER BY seq DESC LIMIT $3) AS newest ORDER BY seq',
      [runId, name, limit],
    );
    return rows.map(toMetricPoint);
  }
}
