import { createHash } from 'node:crypto';
import { mkdirSync, realpathSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { CoworkError } from '../errors';
import type { JobService } from '../jobs/job-service';
import type { StartJobInput } from '../jobs/job-input';
import type { SandboxRequest } from '../jobs/sandbox-policy';
import type { JobRecord } from '../store/job-records';
import type { Json, Operator } from '../store/records';
import type { MetricDirection, MetricPoint, MetricSummary, RunProblem, RunRecord, RunSource, RunStatus } from '../store/run-records';
import type { Store, StoreTx } from '../store/store';
import { writeJsonAtomic } from '../util/atomic-file';
import { newId } from '../util/ids';
import { isPlainObject } from '../util/json';
import { containedPath, isInside } from '../util/paths';
import { defaultDirection, parseMetricStdoutLine, parseMetricsJsonLine, readLinesFrom, summarise, type ParsedLine } from './run-metrics';
import { taskPaths } from './task-files';

export type { MetricDirection, MetricPoint, MetricSummary, RunProblem, RunRecord, RunSource, RunStatus };

/** The file a run's job writes its metrics to, in its working folder. */
export const METRICS_FILE = 'metrics.jsonl';
/** Problems kept on a run (all are counted). */
export const RUN_PROBLEMS_KEPT = 20;
/** Passes one refresh makes over a source that has more than MAX_READ_BYTES to read. */
const MAX_PASSES = 16;
const RUN_NAME_MAX = 120;

export interface RunsDeps {
  readonly store: Store;
  readonly workspaceDir: string;
  readonly jobs: JobService;
  readonly now?: () => Date;
  /** Where a refresh that failed in the background (a job ended) is reported. */
  readonly onBackgroundError?: (error: unknown) => void;
}

/** What a run is about: its name, parameters, goal and artifacts. */
export interface RunFields {
  readonly name?: string;
  readonly params?: Json;
  readonly goal?: { readonly metric: string; readonly direction: MetricDirection };
  /** Paths relative to the task folder, inside `work/` or `runs/<runId>/`. */
  readonly artifacts?: readonly string[];
}

export interface StartRunRequest extends RunFields {
  readonly taskId: string;
  readonly name: string;
  readonly job: StartJobInput;
  /**
   * The job's sandbox (an agent's: its task's work folder); `cwd` is then relative to the work folder.
   * Absent only for a plugin's own command (task-runs-api.ts): `cwd` is then relative to the workspace.
   */
  readonly sandbox?: SandboxRequest;
  /** The metrics file, relative to the job's working folder (default `metrics.jsonl`); it must stay inside it. */
  readonly metricsFile?: string;
  readonly operator: Operator;
  /** A repeated start with the same key (a resumed tool call) answers the same run and job. */
  readonly idempotencyKey?: string;
}

/** A finished run whose figures were computed in-process (an evaluation): no job, its points given. */
export interface RecordResultRequest extends RunFields {
  readonly taskId: string;
  readonly name: string;
  /** Lines in the `metrics.jsonl` shapes ({name, value, step?} or {step?, metric: value, ...}); one bad line refuses the whole run. */
  readonly metrics: readonly Json[];
  readonly status?: 'succeeded' | 'failed';
  readonly operator: Operator;
  readonly idempotencyKey?: string;
}

export interface RecordRunRequest extends RunFields {
  readonly taskId: string;
  /** An existing run to add the job or artifacts to; without it a new run is recorded (`name` and `jobId` required). */
  readonly runId?: string;
  readonly jobId?: string;
  readonly operator: Operator;
  readonly idempotencyKey?: string;
}

/**
 * A task's runs (README, "Runs"): each the record of one experiment, its job(s), parameters,
 * metrics, artifacts, status and times. The store holds them (tables `runs` and `run_points`);
 * `tasks/<id>/runs/<runId>/run.json` mirrors each for people. Metrics are read from the jobs'
 * `metrics.jsonl` and `METRIC` stdout lines incrementally (from the stored offset) whenever a run is
 * read, when the digest is built and when a job ends; each pass is one transaction, so a line is
 * taken whole or not at all, and a bad line is a problem on the run while the good lines count.
 */
export class Runs {
  private readonly now: () => Date;
  private readonly inFlight = new Map<string, Promise<RunRecord>>();
  private readonly mirrored = new Map<string, string>();
  private readonly stopFollowing: () => void;
  private readonly background = new Set<Promise<unknown>>();

  constructor(private readonly deps: RunsDeps) {
    this.now = deps.now ?? (() => new Date());
    this.stopFollowing = deps.jobs.subscribe((job) => {
      if (job.status === 'running' || job.taskId === null) return;
      const done = this.refreshJobRuns(job).catch((error: unknown) => deps.onBackgroundError?.(error));
      this.background.add(done);
      void done.finally(() => this.background.delete(done));
    });
  }

  /** Stops following jobs, after the refreshes in flight. */
  async close(): Promise<void> {
    this.stopFollowing();
    await Promise.all([...this.background]);
  }

  /** Starts the run's job (sandboxed as asked, or a plugin's own command) and records the run. */
  async start(request: StartRunRequest): Promise<RunRecord> {
    const paths = taskPaths(this.deps.workspaceDir, request.taskId);
    const runId = this.runIdFor(request.taskId, request.idempotencyKey);
    const fields = this.checkFields(request.taskId, runId, { ...request, name: request.name }, true);
    const existing = await this.deps.store.read((tx) => tx.runs.get(runId));
    if (existing) return this.get(request.taskId, runId);
    mkdirSync(paths.work, { recursive: true });
    const base = realpathSync(request.sandbox ? paths.work : this.deps.workspaceDir);
    const metricsName = request.metricsFile ?? METRICS_FILE;
    const metricsFile = containedPath(resolve(base, request.job.cwd ?? '.'), metricsName, 'metricsFile', { baseName: "the job's working folder" });
    // Lines an earlier run left in the same folder are not this run's.
    const offset = sizeOf(metricsFile);
    const env = { ...request.job.env, COWORK_RUN_ID: runId, COWORK_METRICS_FILE: metricsFile };
    const job = await this.deps.jobs.start(
      { ...request.job, env, name: request.job.name ?? fields.name },
      { operator: request.operator, taskId: request.taskId, idempotencyKey: request.idempotencyKey, ...(request.sandbox ? { sandbox: request.sandbox } : {}) },
    );
    const file = join(job.cwd, metricsName);
    // A file now shorter than it was was rewritten by the job: all of it is this run's.
    const source: RunSource = { jobId: job.id, metricsFile: file, offset: sizeOf(file) < offset ? 0 : offset, line: 0, stdoutLines: 0, done: false };
    await this.insert({ runId, taskId: request.taskId, fields, sources: [source], operator: request.operator, startedAt: job.createdAt });
    return this.get(request.taskId, runId);
  }

  /** Records a finished run with the metrics given (no job): an evaluation computed in-process. */
  async recordResult(request: RecordResultRequest): Promise<RunRecord> {
    const { taskId } = request;
    taskPaths(this.deps.workspaceDir, taskId);
    const runId = this.runIdFor(taskId, request.idempotencyKey);
    if (await this.deps.store.read((tx) => tx.runs.get(runId))) return this.get(taskId, runId);
    const fields = this.checkFields(taskId, runId, request, true);
    if (!Array.isArray(request.metrics) || request.metrics.length === 0) {
      throw new CoworkError('invalid_input', 'a recorded result needs metrics: a list of {name, value, step?} or {step?, metric: value} objects', { field: 'metrics' });
    }
    const at = this.now().toISOString();
    const points: MetricPoint[] = request.metrics.flatMap((line, index) => {
      const parsed = parseMetricsJsonLine(JSON.stringify(line) ?? 'undefined');
      if (!parsed.ok) throw new CoworkError('invalid_input', `metrics[${index}]: ${parsed.reason}`, { field: 'metrics', index });
      return parsed.points.map((p) => ({ ...p, at }));
    });
    const status = request.status ?? 'succeeded';
    if (status !== 'succeeded' && status !== 'failed') throw new CoworkError('invalid_input', 'status must be "succeeded" or "failed"', { field: 'status' });
    const direction = (name: string): MetricDirection => (fields.goal?.metric === name ? fields.goal.direction : defaultDirection(name));
    await this.insert({ runId, taskId, fields, sources: [], operator: request.operator, startedAt: at, finished: { status, metrics: summarise({}, points, direction), points } });
    return this.get(taskId, runId);
  }

  /** Records a run of an existing job of the task, or adds a job, artifacts or fields to a run. */
  async record(request: RecordRunRequest): Promise<RunRecord> {
    const { taskId } = request;
    taskPaths(this.deps.workspaceDir, taskId);
    const job = request.jobId === undefined ? undefined : await this.taskJob(taskId, request.jobId);
    if (request.runId !== undefined) {
      const run = await this.requireRun(taskId, request.runId);
      const fields = this.checkFields(taskId, run.id, request, false);
      await this.deps.store.transaction(async (tx) => {
        const current = (await tx.runs.get(run.id))!;
        const sources = job && !current.sources.some((s) => s.jobId === job.id) ? [...current.sources, newSource(job)] : current.sources;
        const artifacts = [...new Set([...current.artifacts, ...(fields.artifacts ?? [])])];
        await tx.runs.update({
          ...current,
          name: fields.name ?? current.name,
          params: fields.params ?? current.params,
          goal: fields.goal ?? current.goal,
          artifacts,
          sources,
          status: job && job.status === 'running' ? 'running' : current.status,
          endedAt: job && job.status === 'running' ? null : current.endedAt,
          updatedAt: this.now().toISOString(),
        });
      });
      return this.get(taskId, run.id);
    }
    if (job === undefined) throw new CoworkError('invalid_input', 'record_run needs a jobId for a new run (or a runId to add to)', { field: 'jobId', reason: 'missing' });
    const runId = this.runIdFor(taskId, request.idempotencyKey);
    if (await this.deps.store.read((tx) => tx.runs.get(runId))) return this.get(taskId, runId);
    const fields = this.checkFields(taskId, runId, request, true);
    await this.insert({ runId, taskId, fields, sources: [newSource(job)], operator: request.operator, startedAt: job.createdAt });
    return this.get(taskId, runId);
  }

  /** A run of the task, its metrics read up to now; `not_found` for an unknown id or another task's run. */
  async get(taskId: string, runId: string): Promise<RunRecord> {
    await this.requireRun(taskId, runId);
    return this.refresh(runId);
  }

  /** The task's runs, newest first, their metrics read up to now. */
  async list(taskId: string): Promise<RunRecord[]> {
    const runs = await this.deps.store.read((tx) => tx.runs.list(taskId));
    const following = runs.filter(isFollowing);
    // Nothing to read (every turn of a task with no live run): the list as read is the answer.
    if (following.length === 0) return runs;
    for (const run of following) await this.refresh(run.id);
    return this.stored(taskId);
  }

  /**
   * Within a read transaction the caller has open: the task's runs as stored, when none follows a
   * job still to be read (so the list is also what `list` answers); undefined when some do.
   */
  async listSettled(tx: StoreTx, taskId: string): Promise<RunRecord[] | undefined> {
    const runs = await tx.runs.list(taskId);
    return runs.some(isFollowing) ? undefined : runs;
  }

  /** The task's runs as stored, newest first (no reading). */
  stored(taskId: string): Promise<RunRecord[]> {
    return this.deps.store.read((tx) => tx.runs.list(taskId));
  }

  /** A metric's series of a run (the last `limit` points). */
  async series(taskId: string, runId: string, name: string, limit?: number): Promise<MetricPoint[]> {
    await this.get(taskId, runId);
    return this.deps.store.read((tx) => tx.runs.series(runId, name, limit));
  }

  /** Reads what the run's jobs added since the last read, and their status; one pass at a time per run. */
  refresh(runId: string): Promise<RunRecord> {
    const prior = this.inFlight.get(runId);
    if (prior) return prior;
    const pass = this.readNew(runId).finally(() => this.inFlight.delete(runId));
    this.inFlight.set(runId, pass);
    return pass;
  }

  private async refreshJobRuns(job: JobRecord): Promise<void> {
    const runs = await this.stored(job.taskId!);
    for (const run of runs) if (run.sources.some((s) => s.jobId === job.id)) await this.refresh(run.id);
  }

  private async readNew(runId: string): Promise<RunRecord> {
    let run = (await this.deps.store.read((tx) => tx.runs.get(runId)))!;
    for (let pass = 0; pass < MAX_PASSES; pass++) {
      const jobs = new Map<string, JobRecord | null>();
      const stdout = new Map<string, string>();
      for (const source of run.sources) {
        const job = await this.deps.jobs.get(source.jobId).catch(() => null);
        jobs.set(source.jobId, job);
        if (!source.done && job) stdout.set(source.jobId, await this.deps.jobs.readLog(source.jobId, 'stdout').catch(() => ''));
      }
      const result = await this.deps.store.transaction(async (tx) => {
        const current = (await tx.runs.get(runId))!;
        const next = this.ingest(current, jobs, stdout);
        if (next.points.length > 0) await tx.runs.appendPoints(runId, next.points);
        if (next.changed) await tx.runs.update(next.run);
        return next;
      });
      run = result.run;
      if (!result.more) break;
    }
    this.mirror(run);
    return run;
  }

  /** The run after reading its sources: what to append and whether anything changed. */
  private ingest(run: RunRecord, jobs: Map<string, JobRecord | null>, stdout: Map<string, string>): { run: RunRecord; points: MetricPoint[]; changed: boolean; more: boolean } {
    const at = this.now().toISOString();
    const points: MetricPoint[] = [];
    const problems: RunProblem[] = [];
    let more = false;
    const sources = run.sources.map((source): RunSource => {
      if (source.done) return source;
      const job = jobs.get(source.jobId);
      const final = !job || job.status !== 'running';
      const take = (file: RunProblem['file'], line: number, parsed: ParsedLine): void => {
        if (parsed.ok) points.push(...parsed.points.map((p) => ({ ...p, at })));
        else problems.push({ jobId: source.jobId, file, line, reason: parsed.reason });
      };
      const read = readLinesFrom(source.metricsFile, source.offset, final);
      let offset = read.offset;
      let line = source.line;
      if (read.shrank) {
        problems.push({ jobId: source.jobId, file: 'metrics.jsonl', line, reason: `the file shrank below the ${source.offset} bytes already read (rewritten?): it is read again from the start; append to it instead` });
        offset = 0;
        line = 0;
      }
      for (const l of read.lines) {
        line++;
        if (l.tooLong) take('metrics.jsonl', line, { ok: false, reason: 'line longer than 64 KiB' });
        else if (l.text.trim() !== '') take('metrics.jsonl', line, parseMetricsJsonLine(l.text));
      }
      more ||= read.more || read.shrank;
      const text = stdout.get(source.jobId) ?? '';
      const all = text === '' ? [] : text.split('\n');
      // The last piece is a line still being written unless the job ended.
      const complete = final ? all.filter((l, i) => i < all.length - 1 || l !== '') : all.slice(0, -1);
      let stdoutLines = source.stdoutLines;
      for (; stdoutLines < complete.length; stdoutLines++) {
        const parsed = parseMetricStdoutLine(complete[stdoutLines]!.replace(/\r$/, ''));
        if (parsed) take('stdout', stdoutLines + 1, parsed);
      }
      return { ...source, offset, line, stdoutLines, done: final && !read.more && !read.shrank };
    });
    const direction = (name: string): MetricDirection => (run.goal?.metric === name ? run.goal.direction : defaultDirection(name));
    const metrics = points.length > 0 ? summarise(run.metrics, points, direction) : run.metrics;
    const { status, endedAt } = statusOf([...jobs.values()], run);
    const next: RunRecord = {
      ...run,
      sources,
      metrics,
      status,
      endedAt,
      problems: [...run.problems, ...problems].slice(0, RUN_PROBLEMS_KEPT),
      problemCount: run.problemCount + problems.length,
    };
    const changed = JSON.stringify({ ...next, updatedAt: '' }) !== JSON.stringify({ ...run, updatedAt: '' });
    return { run: changed ? { ...next, updatedAt: at } : run, points, changed, more };
  }

  private async insert(args: {
    runId: string;
    taskId: string;
    fields: CheckedFields;
    sources: RunSource[];
    operator: Operator;
    startedAt: string;
    /** A run recorded finished, with its points (recordResult). */
    finished?: { status: RunStatus; metrics: RunRecord['metrics']; points: MetricPoint[] };
  }): Promise<void> {
    const { runId, taskId, fields, finished } = args;
    const record: RunRecord = {
      id: runId,
      taskId,
      name: fields.name!,
      params: fields.params ?? {},
      status: finished?.status ?? 'running',
      startedAt: args.startedAt,
      endedAt: finished ? args.startedAt : null,
      goal: fields.goal ?? null,
      artifacts: fields.artifacts ?? [],
      metrics: finished?.metrics ?? {},
      problems: [],
      problemCount: 0,
      sources: args.sources,
      createdBy: args.operator,
      updatedAt: this.now().toISOString(),
    };
    await this.deps.store.transaction(async (tx) => {
      if (await tx.runs.get(runId)) return;
      await tx.runs.insert(record);
      if (finished && finished.points.length > 0) await tx.runs.appendPoints(runId, finished.points);
    });
  }

  /** `tasks/<id>/runs/<runId>/run.json`, rewritten atomically when the run changed. */
  private mirror(run: RunRecord): void {
    const view = JSON.stringify(runView(run), null, 2);
    if (this.mirrored.get(run.id) === view) return;
    const runs = taskPaths(this.deps.workspaceDir, run.taskId).runs;
    mkdirSync(runs, { recursive: true });
    const dir = containedPath(runs, run.id, 'runId', { baseName: "the task's runs folder" });
    mkdirSync(dir, { recursive: true });
    writeJsonAtomic(join(dir, 'run.json'), JSON.parse(view));
    this.mirrored.set(run.id, view);
  }

  private runIdFor(taskId: string, key: string | undefined): string {
    if (key === undefined) return newId('run');
    return `run_${createHash('sha256').update(`${taskId}\0${key}`).digest('hex').slice(0, 21)}`;
  }

  private async requireRun(taskId: string, runId: string): Promise<RunRecord> {
    const run = typeof runId === 'string' ? await this.deps.store.read((tx) => tx.runs.get(runId)) : undefined;
    if (!run || run.taskId !== taskId) throw new CoworkError('not_found', `no run ${JSON.stringify(runId)} in this task`, { runId: typeof runId === 'string' ? runId : null, taskId });
    return run;
  }

  private async taskJob(taskId: string, jobId: string): Promise<JobRecord> {
    const job = await this.deps.jobs.get(jobId);
    if (job.taskId !== taskId) {
      throw new CoworkError('permission_denied', `job ${JSON.stringify(jobId)} is not a job of this task`, { permission: 'job', jobId, taskId });
    }
    return job;
  }

  /** The fields checked: name, params an object, goal, artifacts each inside `work/` or `runs/<runId>/`. */
  private checkFields(taskId: string, runId: string, fields: RunFields, needName: boolean): CheckedFields {
    const out: { name?: string; params?: Json; goal?: RunRecord['goal']; artifacts?: string[] } = {};
    if (fields.name !== undefined || needName) {
      if (typeof fields.name !== 'string' || fields.name.trim() === '' || fields.name.length > RUN_NAME_MAX) {
        throw new CoworkError('invalid_input', `a run's name must be a non-empty text of at most ${RUN_NAME_MAX} characters`, { field: 'name' });
      }
      out.name = fields.name.trim();
    }
    if (fields.params !== undefined) {
      if (!isPlainObject(fields.params)) throw new CoworkError('invalid_input', "a run's params must be a JSON object", { field: 'params' });
      out.params = fields.params;
    }
    if (fields.goal !== undefined) {
      const goal = fields.goal as unknown;
      if (!isPlainObject(goal) || typeof goal.metric !== 'string' || (goal.direction !== 'min' && goal.direction !== 'max')) {
        throw new CoworkError('invalid_input', 'goal must be {metric, direction: "min" | "max"}', { field: 'goal' });
      }
      out.goal = { metric: goal.metric, direction: goal.direction };
    }
    if (fields.artifacts !== undefined) {
      if (!Array.isArray(fields.artifacts)) throw new CoworkError('invalid_input', 'artifacts must be a list of paths', { field: 'artifacts' });
      const paths = taskPaths(this.deps.workspaceDir, taskId);
      mkdirSync(paths.root, { recursive: true });
      const root = realpathSync(paths.root);
      out.artifacts = fields.artifacts.map((given) => {
        const path = containedPath(root, given, 'artifacts', { baseName: "the task's folder" });
        if (!isInside(join(root, 'work'), path) && !isInside(join(root, 'runs', runId), path)) {
          throw new CoworkError('invalid_input', `artifact ${JSON.stringify(given)} must be inside work/ or runs/${runId}/ of the task's folder`, {
            field: 'artifacts',
            reason: 'outside_run_scope',
            path: given,
          });
        }
        return relative(root, path);
      });
    }
    return out;
  }
}

type CheckedFields = { name?: string; params?: Json; goal?: RunRecord['goal']; artifacts?: string[] };

function newSource(job: JobRecord): RunSource {
  return { jobId: job.id, metricsFile: join(job.cwd, METRICS_FILE), offset: 0, line: 0, stdoutLines: 0, done: false };
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** A run's status from its jobs': running while one runs; then failed, uncertain, cancelled, succeeded in that order. */
function statusOf(jobs: readonly (JobRecord | null)[], run: RunRecord): { status: RunStatus; endedAt: string | null } {
  if (jobs.length === 0) return { status: run.status, endedAt: run.endedAt };
  const statuses = jobs.map((j) => j?.status ?? 'uncertain');
  if (statuses.includes('running')) return { status: 'running', endedAt: null };
  const status: RunStatus = (['failed', 'uncertain', 'cancelled'] as const).find((s) => statuses.includes(s)) ?? 'succeeded';
  const ends = jobs.map((j) => j?.endedAt ?? '').filter((e) => e !== '').sort();
  return { status, endedAt: ends[ends.length - 1] ?? run.endedAt };
}

/** What people and models see of a run. */
export function runView(run: RunRecord): Json {
  return {
    id: run.id,
    taskId: run.taskId,
    name: run.name,
    status: run.status,
    params: run.params,
    goal: run.goal,
    jobIds: run.sources.map((s) => s.jobId),
    startedAt: run.startedAt,
    endedAt: run.endedAt,
    metrics: run.metrics as unknown as Json,
    artifacts: [...run.artifacts],
    problems: run.problems.map((p) => ({ ...p })),
    problemCount: run.problemCount,
  };
}

/** A run still reading a job's output (a source not done): listing it reads what was added first. */
function isFollowing(run: RunRecord): boolean {
  return run.sources.some((s) => !s.done);
}
