import type { Operator } from '../records';
import type { MetricPoint, RunRecord, RunStatus } from '../run-records';
import { parseStored } from '../../util/json';
import type { Param } from './table';

export interface RunRow {
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

export interface PointRow {
  name: string;
  step: number | null;
  value: number;
  at: string;
}

/** Every column of a run in `runValues` order; an update writes all but id, task_id and created_by. */
export const RUN_COLUMNS = ['id', 'task_id', 'name', 'params', 'status', 'started_at', 'ended_at', 'goal', 'artifacts', 'metrics', 'problems', 'problem_count', 'sources', 'created_by', 'updated_at'] as const;

/** The columns an update replaces (everything but id, task and creator). */
export const RUN_UPDATED_COLUMNS = RUN_COLUMNS.filter((c) => c !== 'id' && c !== 'task_id' && c !== 'created_by');

/** A run's column values by column name (insert and update take theirs from it). */
export function runValues(r: RunRecord): Record<(typeof RUN_COLUMNS)[number], Param> {
  return {
    id: r.id,
    task_id: r.taskId,
    name: r.name,
    params: JSON.stringify(r.params),
    status: r.status,
    started_at: r.startedAt,
    ended_at: r.endedAt,
    goal: r.goal && JSON.stringify(r.goal),
    artifacts: JSON.stringify(r.artifacts),
    metrics: JSON.stringify(r.metrics),
    problems: JSON.stringify(r.problems),
    problem_count: r.problemCount,
    sources: JSON.stringify(r.sources),
    created_by: r.createdBy,
    updated_at: r.updatedAt,
  };
}

export function toRunRecord(row: RunRow): RunRecord {
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

export function toMetricPoint(row: PointRow): MetricPoint {
  return { name: row.name, step: row.step, value: row.value, at: row.at };
}
