import type { Database, Statement } from 'better-sqlite3';
import type { MetricPoint, RunRecord, RunRepo } from '../../run-records';
import { RUN_COLUMNS, RUN_UPDATED_COLUMNS, runValues, toMetricPoint, toRunRecord, type PointRow, type RunRow } from '../../rows/run-row';
import { insertSql } from '../../rows/table';
import { BOUND_LIMIT } from './query';

export class SqliteRunRepo implements RunRepo {
  private readonly insertStmt: Statement;
  private readonly getStmt: Statement<[string], RunRow>;
  private readonly listStmt: Statement<[string], RunRow>;
  private readonly updateStmt: Statement;
  private readonly deleteStmt: Statement<[string]>;
  private readonly deletePointsStmt: Statement<[string]>;
  private readonly lastSeqStmt: Statement<[string], { seq: number | null }>;
  private readonly pointStmt: Statement;
  private readonly seriesStmt: Statement<[string, string, number], PointRow>;

  constructor(db: Database) {
    // Named parameters, one per column (`@task_id`), bound from runValues.
    this.insertStmt = db.prepare(insertSql('runs', RUN_COLUMNS, (i) => `@${RUN_COLUMNS[i]}`));
    this.getStmt = db.prepare('SELECT * FROM runs WHERE id = ?');
    this.listStmt = db.prepare('SELECT * FROM runs WHERE task_id = ? ORDER BY started_at DESC, id DESC');
    this.updateStmt = db.prepare(`UPDATE runs SET ${RUN_UPDATED_COLUMNS.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`);
    this.deleteStmt = db.prepare('DELETE FROM runs WHERE id = ?');
    this.deletePointsStmt = db.prepare('DELETE FROM run_points WHERE run_id = ?');
    this.lastSeqStmt = db.prepare('SELECT MAX(seq) AS seq FROM run_points WHERE run_id = ?');
    this.pointStmt = db.prepare('INSERT INTO run_points (run_id, seq, name, step, value, at) VALUES (?, ?, ?, ?, ?, ?)');
    this.seriesStmt = db.prepare(
      `SELECT name, step, value, at FROM (SELECT * FROM run_points WHERE run_id = ? AND name = ? ORDER BY seq DESC ${BOUND_LIMIT}) ORDER BY seq`,
    );
  }

  async insert(r: RunRecord): Promise<void> {
    this.insertStmt.run(runValues(r));
  }

  async get(id: string): Promise<RunRecord | undefined> {
    const row = this.getStmt.get(id);
    return row && toRunRecord(row);
  }

  async list(taskId: string): Promise<RunRecord[]> {
    return this.listStmt.all(taskId).map(toRunRecord);
  }

  async update(r: RunRecord): Promise<void> {
    this.updateStmt.run(runValues(r));
  }

  async delete(id: string): Promise<void> {
    this.deletePointsStmt.run(id);
    this.deleteStmt.run(id);
  }

  async appendPoints(runId: string, points: readonly MetricPoint[]): Promise<void> {
    let seq = this.lastSeqStmt.get(runId)?.seq ?? 0;
    for (const p of points) this.pointStmt.run(runId, ++seq, p.name, p.step, p.value, p.at);
  }

  async series(runId: string, name: string, limit = 1000): Promise<MetricPoint[]> {
    return this.seriesStmt.all(runId, name, limit).map(toMetricPoint);
  }
}
