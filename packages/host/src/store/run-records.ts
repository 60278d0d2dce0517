import type { Json, Operator } from './records';

/**
 * A run: the record of one experiment in a task (agents/runs.ts). Its status follows its jobs:
 * `running` while one runs, then `failed` if one failed, else `uncertain`, `cancelled` or `succeeded`.
 */
export type RunStatus = 'running' | 'succeeded' | 'failed' | 'cancelled' | 'uncertain';

/** Which way a metric improves: `min` (loss, error, ...) or `max`. */
export type MetricDirection = 'min' | 'max';

/** What a run knows of one metric without reading its series. */
export interface MetricSummary {
  readonly last: number;
  readonly lastStep: number | null;
  readonly best: number;
  readonly bestStep: number | null;
  readonly direction: MetricDirection;
  readonly count: number;
}

/**
 * Where a run reads one job's metrics from, and how far it has read: `offset` bytes (and `line`
 * lines) of `metricsFile`, `stdoutLines` lines of the job's stdout. `done` once the job ended and
 * everything it wrote was read.
 */
export interface RunSource {
  readonly jobId: string;
  readonly metricsFile: string;
  readonly offset: number;
  readonly line: number;
  readonly stdoutLines: number;
  readonly done: boolean;
}

/** A line that was not taken as metrics, and why (the line is skipped whole; the others count). */
export interface RunProblem {
  readonly jobId: string;
  readonly file: 'metrics.jsonl' | 'stdout';
  readonly line: number;
  readonly reason: string;
}

export interface RunRecord {
  readonly id: string;
  readonly taskId: string;
  readonly name: string;
  readonly params: Json;
  readonly status: RunStatus;
  readonly startedAt: string;
  readonly endedAt: string | null;
  /** The metric that decides which run is best, and its direction; null: each metric's default. */
  readonly goal: { readonly metric: string; readonly direction: MetricDirection } | null;
  /** Paths relative to the task folder, each inside `work/` or `runs/<id>/`. */
  readonly artifacts: readonly string[];
  readonly metrics: Readonly<Record<string, MetricSummary>>;
  /** The first problems found (at most RUN_PROBLEMS_KEPT); `problemCount` counts them all. */
  readonly problems: readonly RunProblem[];
  readonly problemCount: number;
  readonly sources: readonly RunSource[];
  readonly createdBy: Operator | null;
  readonly updatedAt: string;
}

/** One value of a metric's series. */
export interface MetricPoint {
  readonly name: string;
  readonly step: number | null;
  readonly value: number;
  readonly at: string;
}

export interface RunRepo {
  insert(run: RunRecord): Promise<void>;
  get(id: string): Promise<RunRecord | undefined>;
  /** A task's runs, newest first. */
  list(taskId: string): Promise<RunRecord[]>;
  /** Replaces what changes of a run (everything but id, task and creator). */
  update(run: RunRecord): Promise<void>;
  delete(id: string): Promise<void>;
  appendPoints(runId: string, points: readonly MetricPoint[]): Promise<void>;
  /** A metric's series, oldest first (the last `limit` points). */
  series(runId: string, name: string, limit?: number): Promise<MetricPoint[]>;
}
