import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { CoworkError } from '../errors';
import type { JobEnd, JobRecord, JobStatus } from '../store/job-records';
import type { Json, Operator } from '../store/records';
import { IdempotencyClaim } from '../store/idempotency';
import type { Store, StoreTx } from '../store/store';
import type { HostPresence } from '../store/leases/presence';
import { Emitter } from '../util/emitter';
import { newId } from '../util/ids';
import { isPlainObject } from '../util/json';
import { checkJobInput, type StartJobInput } from './job-input';
import { jobPaths, type CancelFile, type JobSpec, type LogLimits, type LogStream } from './job-files';
import { readJsonFile, writeJsonAtomic } from '../util/atomic-file';
import { LogFollower, compilePattern, readRetainedLog, selectLines, type LogQuery, type LogSelection } from './job-logs';
import { LogMatchCounter } from './log-match-counter';
import { JobWatcher } from './job-watcher';
import { launchSupervisor } from './launch';
import { observe, observeElsewhere, signalJob } from './observe';
import { judge } from './reconcile';
import type { SandboxSpec } from './sandbox';
import { sandboxCwd, sandboxFor, type SandboxRequest } from './sandbox-policy';

export interface JobServiceOptions {
  readonly store: Store;
  readonly workspaceDir: string;
  readonly now?: () => string;
  /** Per stream: rotate at `maxBytes` (default 10 MiB), keep `keep` rotated files (default 2). */
  readonly log?: Partial<LogLimits>;
  /** Default time between SIGTERM and SIGKILL on cancel (default 5000 ms). */
  readonly cancelGraceMs?: number;
  /** How often running jobs are checked while the service watches (default 500 ms). */
  readonly pollMs?: number;
  /** How long `start` waits for the supervisor to report the command running (default 15 s). */
  readonly startTimeoutMs?: number;
  /** Called once for each job this service saw end. */
  readonly onJobEnded?: (job: JobRecord) => void;
  /** Called when a background check fails. */
  readonly onBackgroundError?: (error: unknown) => void;
  /**
   * This host's presence among the hosts on the workspace (store/leases/presence.ts): each job
   * records this machine's host id, and a job started on another machine is judged by whether a
   * host there still runs, not by its pids, which mean nothing here. Without it every job is taken
   * for this machine's (a bare service over one machine's workspace). `start` takes the presence
   * lease if the host does not hold it yet.
   */
  readonly presence?: HostPresence;
}

export interface StartOptions {
  readonly operator?: Operator;
  /** The task the job belongs to (an agent's tool call); its completion gate waits for the job. */
  readonly taskId?: string;
  /** A repeated start with a known key returns the job it started instead of starting another. */
  readonly idempotencyKey?: string;
  /**
   * Run the command under bubblewrap (sandbox.ts): writable only in the work folder (an agent's:
   * its task's), the rest of the workspace hidden, network only when `network`
   * (the caller decides whether the grant allows it). `cwd` is then relative to the work folder,
   * which it must stay inside, and defaults to it. `sandbox_unavailable` when bwrap is missing.
   * Without it the job runs as the host does (a person's `cowork jobs start`, a plugin's own job).
   */
  readonly sandbox?: SandboxRequest;
}

export interface JobLogs extends LogSelection {
  readonly jobId: string;
  readonly stream: LogStream;
}

const DEFAULT_LOG: LogLimits = { maxBytes: 10 * 1024 * 1024, keep: 2 };
/** How long `cancel` keeps waiting for the end after the SIGKILL was due. */
const CANCEL_MARGIN_MS = 5000;
const POLL_WHILE_CANCELLING_MS = 50;

/**
 * Durable background jobs. A job is a command run by a detached supervisor in its own process
 * group, with its files in `<workspace>/jobs/<id>/`; it survives the host, and after a restart
 * the host re-attaches by reading those files and checking the recorded process identities.
 *
 * Contract:
 * - `start` resolves once the command runs and its pid and start time are recorded (or it ended).
 * - Every read (`get`, `list`) reconciles running jobs first: an exit record ends a job with its
 *   true code; a job whose processes are gone without one is `uncertain`, never `succeeded`.
 *   A pid that now belongs to another process (start time differs) does not count as the job.
 * - `cancel` records the request, SIGTERMs the command's process group and SIGKILLs it after the
 *   grace period; it resolves when the job ended (`cancelled`) or the grace plus a margin passed.
 * - Several hosts (see `presence`): a job belongs to the machine that started it. Hosts there
 *   judge it by its processes as above; a host elsewhere ends it only by its exit record, or as
 *   `uncertain` once no host on its machine runs. A cancel from elsewhere is recorded, and a host
 *   on the job's machine signals the job when it next looks at it.
 */
export class JobService {
  private readonly store: Store;
  private readonly workspaceDir: string;
  private readonly now: () => string;
  private readonly log: LogLimits;
  private readonly cancelGraceMs: number;
  private readonly startTimeoutMs: number;
  private readonly watcher: JobWatcher;
  /** Told of each job that starts or ends in this process's view (live clients follow jobs this way). */
  private readonly changes = new Emitter<JobRecord>();
  /** Jobs whose cancel this service has signalled (its own cancels, and requests it delivered). */
  private readonly signalled = new Set<string>();

  constructor(private readonly options: JobServiceOptions) {
    this.store = options.store;
    this.workspaceDir = resolve(options.workspaceDir);
    this.now = options.now ?? (() => new Date().toISOString());
    this.log = { ...DEFAULT_LOG, ...options.log };
    if (!Number.isSafeInteger(this.log.maxBytes) || this.log.maxBytes < 1 || !Number.isSafeInteger(this.log.keep) || this.log.keep < 0) {
      throw new CoworkError('invalid_input', 'log.maxBytes must be a positive integer and log.keep a non-negative one', { log: { ...this.log } });
    }
    this.cancelGraceMs = options.cancelGraceMs ?? 5000;
    this.startTimeoutMs = options.startTimeoutMs ?? 15_000;
    this.watcher = new JobWatcher(() => this.reconcile(), options.pollMs ?? 500, options.onBackgroundError);
  }

  /** A service that reconciled every running job and watches them until `close()`. */
  static async open(options: JobServiceOptions): Promise<JobService> {
    const service = new JobService(options);
    await service.reconcile();
    service.watch();
    return service;
  }

  async start(input: StartJobInput, options: StartOptions = {}): Promise<JobRecord> {
    const sandbox = options.sandbox ? sandboxFor(this.workspaceDir, options.sandbox) : null;
    const checked = checkJobInput(this.workspaceDir, sandbox ? { ...input, cwd: sandboxCwd(sandbox, input.cwd) } : input);
    const claim = IdempotencyClaim.of('job', options.idempotencyKey, { input: checked, taskId: options.taskId ?? null, ...(sandbox && { sandbox: { ...sandbox } }) });
    const id = newId('job');
    const record: JobRecord = {
      id,
      ...checked,
      status: 'running',
      pid: null,
      pgid: null,
      processStartTime: null,
      supervisorPid: null,
      supervisorStartTime: null,
      exitCode: null,
      signal: null,
      error: null,
      createdBy: options.operator ?? null,
      taskId: options.taskId ?? null,
      hostId: this.options.presence?.hostId ?? null,
      createdAt: this.now(),
      startedAt: null,
      endedAt: null,
      cancelRequestedAt: null,
    };
    // Hosts elsewhere leave this machine's jobs running only while a host here is present.
    await this.options.presence?.start();
    // The record is durable before the process exists: a crash from here on leaves a job that
    // reconciliation can judge, never a process the host does not know about.
    const existing = await this.store.transaction(async (tx) => {
      const prior = await claim?.prior(tx);
      if (isJobRef(prior)) return prior.jobId;
      await tx.jobs.insert(record);
      await claim?.record(tx, { jobId: id }, record.createdAt);
      return undefined;
    });
    if (existing !== undefined) return this.get(existing);
    const paths = jobPaths(this.workspaceDir, id);
    mkdirSync(paths.dir, { recursive: true });
    writeJsonAtomic(paths.spec, { id, ...checked, log: this.log, cancelGraceMs: this.cancelGraceMs, sandbox } satisfies JobSpec);
    const died = await launchSupervisor(paths, this.startTimeoutMs);
    if (died !== undefined) await this.end(record, { status: 'failed', exitCode: null, signal: null, error: died, endedAt: this.now() });
    const started = await this.get(id);
    if (started.status === 'running') this.notify(started);
    return started;
  }

  /** The sandbox a job runs in, from its spec; null for a job that runs unsandboxed. */
  async sandboxOf(id: string): Promise<SandboxSpec | null> {
    await this.get(id);
    return readJsonFile<JobSpec>(jobPaths(this.workspaceDir, id).spec)?.sandbox ?? null;
  }

  /** Follows jobs starting and ending; returns the unsubscribe function. */
  subscribe(listener: (job: JobRecord) => void): () => void {
    return this.changes.subscribe(listener);
  }

  private notify(job: JobRecord): void {
    this.changes.emit(job);
  }

  /** The job, reconciled; `not_found` for an unknown id. */
  async get(id: string): Promise<JobRecord> {
    const record = await this.store.read((tx) => tx.jobs.get(id));
    if (!record) throw new CoworkError('not_found', `no job ${JSON.stringify(id)}`, { jobId: id });
    return this.refresh(record);
  }

  /** Jobs oldest first, running ones reconciled. */
  async list(options: { status?: JobStatus; taskId?: string; limit?: number } = {}): Promise<JobRecord[]> {
    // Only the task's jobs can be in a task's list: a turn's listing does not observe every
    // running job of the workspace (the watcher does, on its tick). With none running (nearly
    // every turn) the listing read with them is the answer: one read transaction, not two.
    const { running, listed } = await this.store.read((tx) => this.readListing(tx, options));
    if (running.length === 0) return listed;
    await this.refreshAll(running);
    return this.store.read((tx) => tx.jobs.list(options));
  }

  /**
   * Within a read transaction the caller has open: the list, when none of the jobs it could hold
   * is running (nothing to reconcile); undefined when some are, for `list` to answer.
   */
  async listSettled(tx: StoreTx, options: { status?: JobStatus; taskId?: string; limit?: number }): Promise<JobRecord[] | undefined> {
    const { running, listed } = await this.readListing(tx, options);
    return running.length === 0 ? listed : undefined;
  }

  /** The scope's running jobs and the list asked for (one query when that is the same list). */
  private async readListing(tx: StoreTx, options: { status?: JobStatus; taskId?: string; limit?: number }): Promise<{ running: JobRecord[]; listed: JobRecord[] }> {
    const running = await tx.jobs.list({ status: 'running', taskId: options.taskId });
    const same = options.status === 'running' && options.limit === undefined;
    return { running, listed: same ? running : await tx.jobs.list(options) };
  }

  /** Lines of a job's stdout or stderr: the last `tail`, or the last `tail` that match `search`. */
  async logs(id: string, query: LogQuery & { stream?: LogStream } = {}): Promise<JobLogs> {
    const stream = query.stream ?? 'stdout';
    const text = await this.readLog(id, stream);
    return { jobId: id, stream, ...selectLines(text, query) };
  }

  /** The whole retained log of one stream, as text. */
  async readLog(id: string, stream: LogStream): Promise<string> {
    await this.get(id);
    return readRetainedLog(jobPaths(this.workspaceDir, id).log(stream), this.keptLogs(id)).toString('utf8');
  }

  /** Counts the lines of a stream's retained log that match `search`, reading only what was appended since its last count. */
  async logMatchCounter(id: string, stream: LogStream, search: string): Promise<LogMatchCounter> {
    await this.get(id);
    return new LogMatchCounter(jobPaths(this.workspaceDir, id).log(stream), this.keptLogs(id), compilePattern(search));
  }

  /** A reader of what a stream's log gains from now on (its first read returns the retained log). */
  async followLog(id: string, stream: LogStream): Promise<LogFollower> {
    await this.get(id);
    return new LogFollower(jobPaths(this.workspaceDir, id).log(stream), this.keptLogs(id));
  }

  async cancel(id: string, options: { graceMs?: number } = {}): Promise<JobRecord> {
    const record = await this.get(id);
    if (record.status !== 'running') return record;
    const graceMs = options.graceMs ?? this.cancelGraceMs;
    if (!Number.isSafeInteger(graceMs) || graceMs < 0) {
      throw new CoworkError('invalid_input', 'graceMs must be a non-negative integer', { field: 'graceMs', received: graceMs });
    }
    const at = this.now();
    writeJsonAtomic(jobPaths(this.workspaceDir, id).cancel, { graceMs, requestedAt: at } satisfies CancelFile);
    this.signalled.add(id);
    await this.store.transaction((tx) => tx.jobs.requestCancel(id, at));
    const marked = await this.get(id);
    if (marked.status !== 'running') return marked;
    // A job on another machine is signalled by a host there, which sees the request (`deliverCancel`).
    const kill = this.runsElsewhere(marked) ? undefined : signalJob(marked);
    const killAt = Date.now() + graceMs;
    const giveUpAt = killAt + CANCEL_MARGIN_MS;
    for (;;) {
      const current = await this.get(id);
      if (current.status !== 'running' || Date.now() >= giveUpAt) return current;
      if (Date.now() >= killAt) kill?.();
      await delay(POLL_WHILE_CANCELLING_MS);
    }
  }

  /** Reconciles every running job (at start, and on each watcher tick), or those of one task. */
  async reconcile(taskId?: string): Promise<void> {
    await this.refreshAll(await this.store.read((tx) => tx.jobs.list({ status: 'running', taskId })));
  }

  /** Reconciles these running jobs, asking once per machine whether a host runs there. */
  private async refreshAll(running: readonly JobRecord[]): Promise<void> {
    const machines = new Map<string, Promise<boolean>>();
    for (const record of running) await this.refresh(record, machines);
  }

  /** Starts polling running jobs, so that exits are noticed while nobody asks. */
  watch(): void {
    this.watcher.start();
  }

  /** Stops watching (waiting for a check in flight). Jobs keep running; a later service re-attaches to them. */
  async close(): Promise<void> {
    await this.watcher.stop();
  }

  /** `machines`: whether a host runs on each other machine, asked once per reconcile pass. */
  private async refresh(record: JobRecord, machines = new Map<string, Promise<boolean>>()): Promise<JobRecord> {
    if (record.status !== 'running') return record;
    if (this.runsElsewhere(record)) return this.refreshElsewhere(record, machines);
    const now = this.now();
    const seen = observe(record, jobPaths(this.workspaceDir, record.id), Date.parse(now));
    let current = record;
    if (seen.identity) {
      const identity = seen.identity;
      await this.store.transaction((tx) => tx.jobs.setProcess(record.id, identity));
      current = { ...record, ...identity };
    }
    const end = judge(current, seen, now);
    if (end) return this.end(current, end);
    this.deliverCancel(current);
    return current;
  }

  /** Whether the job runs on another machine than this host's (its pids mean nothing here). */
  private runsElsewhere(record: JobRecord): record is JobRecord & { hostId: string } {
    const here = this.options.presence?.hostId;
    return here !== undefined && record.hostId !== null && record.hostId !== here;
  }

  /** A job of another machine: ended by its exit record, or `uncertain` once no host runs there. */
  private async refreshElsewhere(record: JobRecord & { hostId: string }, machines: Map<string, Promise<boolean>>): Promise<JobRecord> {
    const now = this.now();
    let hostRunning = machines.get(record.hostId);
    if (!hostRunning) machines.set(record.hostId, (hostRunning = this.options.presence!.machineRunning(record.hostId)));
    const seen = observeElsewhere(record, jobPaths(this.workspaceDir, record.id), Date.parse(now), await hostRunning);
    const end = judge(record, seen, now);
    return end ? this.end(record, end) : record;
  }

  /**
   * Signals a running job whose cancel was requested where it could not be signalled (a host on
   * another machine): SIGTERM to its supervisor, which escalates to SIGKILL after the grace period.
   */
  private deliverCancel(record: JobRecord): void {
    if (record.cancelRequestedAt === null || record.pid === null || this.signalled.has(record.id)) return;
    this.signalled.add(record.id);
    signalJob(record);
  }

  /** How many rotated files the job's logs keep: its own spec's limits, which may predate this service's. */
  private keptLogs(id: string): number {
    return readJsonFile<JobSpec>(jobPaths(this.workspaceDir, id).spec)?.log.keep ?? this.log.keep;
  }

  private async end(record: JobRecord, end: JobEnd): Promise<JobRecord> {
    const changed = await this.store.transaction((tx) => tx.jobs.finish(record.id, end));
    this.signalled.delete(record.id);
    const stored = (await this.store.read((tx) => tx.jobs.get(record.id))) ?? record;
    if (changed) {
      this.options.onJobEnded?.(stored);
      this.notify(stored);
    }
    return stored;
  }
}

function isJobRef(value: Json | undefined): value is { jobId: string } {
  return isPlainObject(value) && typeof value.jobId === 'string';
}
