import type { Database, Statement } from 'better-sqlite3';
import type { Operator } from '../../records';
import type { MetricPoint, RunRecord, RunRepo, RunStatus } from '../../run-records';
import { parseStored } from '../../../util/json';

interface RunRow {
  id: string;
  task_id: string;
  name: string;
  params: string;
  status: string;
  started_at: string;
  ended_at: string | null;
  goal: string | null;
  artifacts: string;
  metrics: string;
  problems: string;
  problem_count: number;
  sources: string;
  created_by: string | null;
  updated_at: string;
}

interface PointRow {
  name: string;
  step: number | null;
  value: number;
  at: string;
}

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
    this.insertStmt = db.prepare(
      `INSERT INTO runs (id, task_id, name, params, status, started_at, ended_at, goal, artifacts, metrics, problems, problem_count, sources, created_by, updated_at)
       VALUES (@id, @taskId, @name, @params, @status, @startedAt, @endedAt, @goal, @artifacts, @metrics, @problems, @problemCount, @sources, @createdBy, @updatedAt)`,
    );
    this.getStmt = db.prepare('SELECT * FROM runs WHERE id = ?');
    this.listStmt = db.prepare('SELECT * FROM runs WHERE task_id = ? ORDER BY started_at DESC, id DESC');
    this.updateStmt = db.prepare(
      `UPDATE runs SET name = @name, params = @params, status = @status, started_at = @startedAt, ended_at = @endedAt, goal = @goal,
       artifacts = @artifacts, metrics = @metrics, problems = @problems, problem_count = @problemCount, sources = @sources, updated_at = @updatedAt
       WHERE id = @id`,
    );
    this.deleteStmt = db.prepare('DELETE FROM runs WHERE id = ?');
    this.deletePointsStmt = db.prepare('DELETE FROM run_points WHERE run_id = ?');
    this.lastSeqStmt = db.prepare('SELECT MAX(seq) AS seq FROM run_points WHERE run_id = ?');
    this.pointStmt = db.prepare('INSERT INTO run_points (run_id, seq, name, step, value, at) VALUES (?, ?, ?, ?, ?, ?)');
    this.seriesStmt = db.prepare(
      'SELECT name, step, value, at FROM (SELECT * FROM run_points WHERE run_id = ? AND name = ? ORDER BY seq DESC LIMIT ?) ORDER BY seq',
    );
  }

  async insert(r: RunRecord): Promise<void> {
    this.insertStmt.run(rowValues(r));
  }

  async get(id: string): Promise<RunRecord | undefined> {
    const row = this.getStmt.get(id);
    return row && toRecord(row);
  }

  async list(taskId: string): Promise<RunRecord[]> {
    return this.listStmt.all(taskId).map(toRecord);
  }

  async update(r: RunRecord): Promise<void> {
    this.updateStmt.run(rowValues(r));
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
    return this.seriesStmt.all(runId, name, limit).map((row) => ({ name: row.name, step: row.step, value: row.value, at: row.at }));
  }
}

function toRecord(row: RunRow): RunRecord {
  return {
    id: row.id,
    taskId: row.task_id,
    name: row.name,
    params: parseStored(row.params),
    status: row.status as RunStatus,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    goal: row.goal === null ? null : parseStored(row.goal),
    artifacts: parseStored(row.artifacts),
    metrics: parseStored(row.metrics),
    problems: parseStored(row.problems),
    problemCount: row.problem_count,
    sources: parseStored(row.sources),
    createdBy: row.created_by as Operator | null,
    updatedAt: row.updated_at,
  };
}

/** A run as the statements' named parameters (insert and update share them). */
function rowValues(r: RunRecord): Record<string, string | number | null> {
  return {
    id: r.id,
    taskId: r.taskId,
    name: r.name,
    params: JSON.stringify(r.params),
    status: r.status,
    startedAt: r.startedAt,
    endedAt: r.endedAt,
    goal: r.goal && JSON.stringify(r.goal),
    artifacts: JSON.stringify(r.artifacts),
    metrics: JSON.stringify(r.metrics),
    problems: JSON.stringify(r.problems),
    problemCount: r.problemCount,
    sources: JSON.stringify(r.sources),
    createdBy: r.createdBy,
    updatedAt: r.updatedAt,
  };
}
