import { resolve } from 'node:path';
import { CoworkError } from '../errors';
import type { MonitorRecord, MonitorStatus, MonitorTarget } from '../store/monitor-records';
import type { Json } from '../store/records';
import { IdempotencyClaim } from '../store/idempotency';
import type { Store, StoreTx } from '../store/store';
import { newId } from '../util/ids';
import { isPlainObject, jsonEqual } from '../util/json';
import { Emitter } from '../util/emitter';
import { Semaphore } from '../util/semaphore';
import { parseCron, type CronSchedule } from './cron';
import { checkMonitorInput, type CheckedMonitorInput, type CreateMonitorInput } from './monitor-input';
import { sandboxCwd, sandboxFor, type SandboxRequest } from '../jobs/sandbox-policy';
import { monitorEventBody } from './monitor-event';
import { commandObserver } from './observe-command';
import { fileObserver } from './observe-file';
import { httpObserver } from './observe-http';
import { jobLogObserver } from './observe-job-log';
import { resourceObserver } from './observe-resource';
import type { Observer } from './observer';
import { TimerWheel } from './timer-wheel';
import type { CheckResult, CreateMonitorOptions, MonitorEvent, MonitorEventListener, MonitorOwner, MonitorServiceOptions } from './monitor-types';
import { firstDue, fireTimer, nextPollDue } from './timers';
import { PollLease } from './poll-lease';

export type { CheckResult, CreateMonitorOptions, MonitorEvent, MonitorEventListener, MonitorOwner, MonitorServiceOptions };

/** How soon a timer whose fire could not be stored tries again. */
const RETRY_MS = 1000;

/** A monitor this service schedules. */
interface Live {
  record: MonitorRecord;
  /** Undefined for timers, which observe only the clock. */
  readonly observer: Observer | undefined;
  readonly schedule: CronSchedule | undefined;
  dueMs: number;
  /** Checks of one monitor run one after another. */
  chain: Promise<unknown>;
}

/**
 * Deterministic monitors: each polls its target on its own schedule and emits an event to its
 * owner's Inbox only when the observation differs from the last one (timers emit on every fire).
 * Polling never calls a model.
 *
 * Contract:
 * - `create` takes the first observation (the baseline) before it returns: no event for it, and a
 *   change right after `create` is seen by the first poll.
 * - A change is stored with the event in ONE transaction: the observation, its `seq`, and the
 *   Inbox message `monitor:<id>:<seq>`. A crash loses neither, and cannot fire twice; a second
 *   host on the same workspace loses the compare-and-set on `seq` instead of firing again.
 * - After a restart the last observation is loaded, so an unchanged target emits nothing.
 * - All monitors share ONE timer (a min-heap of due times), unref'd: idle monitors cost nothing
 *   between polls and never keep the process alive.
 * - `cancel` is final; `close` stops polling, waits for checks in flight and writes the checkpoint.
 * - With `leases`, only the host holding the `monitors` lease runs scheduled checks: another host
 *   drops what falls due, and on taking the lease over reloads every active monitor from the store
 *   (their seq and due times as the last holder left them) and schedules them.
 */
export class MonitorService {
  private readonly store: Store;
  private readonly workspaceDir: string;
  private readonly now: () => Date;
  private readonly checkpointMs: number;
  private readonly wheel: TimerWheel;
  private readonly live = new Map<string, Live>();
  /** Unchanged polls not yet written: lastCheckedAt and nextDueAt per monitor. */
  private readonly dirty = new Map<string, { checkedAt: string; nextDueAt: string }>();
  private readonly events: Emitter<MonitorEvent>;
  private readonly pending = new Set<Promise<unknown>>();
  private readonly closing = new AbortController();
  private readonly slots: Semaphore;
  private lastCheckpointMs: number;
  private pollLease: PollLease | undefined;

  constructor(private readonly options: MonitorServiceOptions) {
    this.store = options.store;
    this.workspaceDir = resolve(options.workspaceDir);
    this.now = options.now ?? (() => new Date());
    this.checkpointMs = options.checkpointMs ?? 10_000;
    this.slots = new Semaphore(options.maxConcurrentChecks ?? 8);
    this.wheel = new TimerWheel((ids) => this.onDue(ids), () => this.now().getTime());
    this.lastCheckpointMs = this.now().getTime();
    this.events = new Emitter((error) => this.report(error));
  }

  /** A service that loaded every active monitor and polls them until `close()`. */
  static async open(options: MonitorServiceOptions): Promise<MonitorService> {
    const service = new MonitorService(options);
    if (options.pollStored === false) return service;
    if (options.leases) {
      service.pollLease = new PollLease(options.leases, {
        onTick: (gained) => service.adoptStored(gained),
        onLost: () => undefined, // what falls due from now on is dropped (onDue)
        onError: (error) => service.report(error),
      });
      await service.pollLease.start();
      return service;
    }
    await service.adoptStored(false);
    return service;
  }

  async create(input: CreateMonitorInput, options: CreateMonitorOptions): Promise<MonitorRecord> {
    if (this.closing.signal.aborted) throw new CoworkError('invalid_transition', 'the monitor service is closed');
    const owner = checkOwner(options.owner);
    const checked = this.checkInput(input, options.sandbox);
    const claim = IdempotencyClaim.of('monitor', options.idempotencyKey, { input: checked, owner });
    const prior = claim && (await this.store.read((tx) => claim.prior(tx)));
    if (isMonitorRef(prior)) return this.get(prior.monitorId);
    await this.requireTarget(checked.target);
    const observer = this.observerFor(checked.target);
    const schedule = checked.target.kind === 'cron' ? parseCron(checked.target.expression) : undefined;
    const baseline = observer ? await observer.observe(this.closing.signal) : { fires: 0 };
    const nowMs = this.now().getTime();
    const record: MonitorRecord = {
      id: newId('mon', nowMs),
      ...checked,
      taskId: owner.taskId,
      agentId: owner.agentId,
      status: 'active',
      observation: baseline,
      seq: 0,
      createdBy: options.operator ?? null,
      createdAt: new Date(nowMs).toISOString(),
      lastCheckedAt: observer ? new Date(nowMs).toISOString() : null,
      lastChangedAt: null,
      nextDueAt: new Date(firstDue(checked.intervalMs, schedule, nowMs)).toISOString(),
      cancelledAt: null,
    };
    const existing = await this.store.transaction(async (tx) => {
      const known = await claim?.prior(tx);
      if (isMonitorRef(known)) return known.monitorId;
      await tx.monitors.insert(record);
      await claim?.record(tx, { monitorId: record.id }, record.createdAt);
      return undefined;
    });
    if (existing !== undefined) return this.get(existing);
    this.track(record, observer);
    return record;
  }

  /** The monitor; `not_found` for an unknown id. */
  async get(id: string): Promise<MonitorRecord> {
    const record = await this.store.read((tx) => tx.monitors.get(id));
    if (!record) throw new CoworkError('not_found', `no monitor ${JSON.stringify(id)}`, { monitorId: id });
    return this.withUnwritten(record);
  }

  /** Monitors oldest first, optionally of one task or status. */
  async list(options: { taskId?: string; status?: MonitorStatus; limit?: number } = {}): Promise<MonitorRecord[]> {
    return this.store.read((tx) => this.listIn(tx, options));
  }

  /** The same within a read transaction the caller has open. */
  async listIn(tx: StoreTx, options: { taskId?: string; status?: MonitorStatus; limit?: number } = {}): Promise<MonitorRecord[]> {
    const records = await tx.monitors.list(options);
    return records.map((record) => this.withUnwritten(record));
  }

  /** Stops a monitor for good; a cancelled one is returned unchanged. */
  async cancel(id: string): Promise<MonitorRecord> {
    const record = await this.get(id);
    if (record.status !== 'active') return record;
    await this.store.transaction((tx) => tx.monitors.cancel(id, this.now().toISOString()));
    this.untrack(id);
    return this.get(id);
  }

  /**
   * Polls one monitor now, outside its schedule (which stays as it was), exactly as a scheduled
   * poll does. A timer fires only if it is due. `invalid_transition` for a cancelled monitor.
   */
  async check(id: string): Promise<CheckResult> {
    if (!this.live.has(id)) {
      const record = await this.get(id);
      if (record.status !== 'active') throw new CoworkError('invalid_transition', `monitor ${id} is ${record.status}`, { monitorId: id, status: record.status });
      // Active but not tracked here: another host polls it (it holds the lease) or created it.
      if (!this.live.has(id)) this.track(record, undefined);
    }
    const live = this.live.get(id)!;
    return this.enqueue(live, () => this.runCheck(live, false));
  }

  /** Called after each event is stored (the Inbox message is durable by then). Returns an unsubscribe. */
  onEvent(listener: MonitorEventListener): () => void {
    return this.events.subscribe(listener);
  }

  async close(): Promise<void> {
    if (this.closing.signal.aborted) return;
    this.wheel.stop();
    this.closing.abort();
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
    await this.checkpoint(true).catch((error: unknown) => this.report(error));
    // Last: the next host polls only after this one's checks and checkpoint are done.
    await this.pollLease?.stop();
  }

  private track(record: MonitorRecord, observer: Observer | undefined): void {
    const target = record.target;
    const live: Live = {
      record,
      observer: observer ?? this.observerFor(target),
      schedule: target.kind === 'cron' ? parseCron(target.expression) : undefined,
      dueMs: Date.parse(record.nextDueAt),
      chain: Promise.resolve(),
    };
    this.live.set(record.id, live);
    this.wheel.schedule(record.id, live.dueMs);
  }

  /**
   * Tracks the stored active monitors this service does not (created by another host); with
   * `resync`, also brings the tracked ones up to their stored state and due time (this host just
   * took the polling over, and what it knew may be stale).
   */
  private async adoptStored(resync: boolean): Promise<void> {
    const active = await this.store.read((tx) => tx.monitors.list({ status: 'active' }));
    const stored = new Set(active.map((record) => record.id));
    for (const record of active) {
      const live = this.live.get(record.id);
      if (!live) this.track(record, undefined);
      else if (resync) {
        live.record = record;
        this.reschedule(live, Date.parse(record.nextDueAt));
      }
    }
    if (resync) for (const id of [...this.live.keys()]) if (!stored.has(id)) this.untrack(id);
  }

  private untrack(id: string): void {
    this.live.delete(id);
    this.wheel.remove(id);
    this.dirty.delete(id);
  }

  private onDue(ids: string[]): void {
    // Another host polls: drop what fell due (taking the lease over schedules everything again).
    if (this.pollLease && !this.pollLease.held) return;
    const batch = ids.map((id) => {
      const live = this.live.get(id);
      return live ? this.slots.run(() => this.enqueue(live, () => this.runCheck(live, true))) : undefined;
    });
    this.background(Promise.allSettled(batch).then(() => this.checkpoint(false)));
  }

  private async runCheck(live: Live, scheduled: boolean): Promise<CheckResult> {
    const unchanged = (): CheckResult => ({ changed: false, observation: live.record.observation, seq: live.record.seq });
    if (this.live.get(live.record.id) !== live || this.closing.signal.aborted) return unchanged();
    if (!live.observer) return this.runTimer(live, scheduled);
    let observation: Json;
    try {
      observation = await live.observer.observe(this.closing.signal);
    } catch (error) {
      // A bug or an unexpected failure is an observation too: the monitor keeps its schedule.
      const message = (error as { message?: unknown } | null)?.message;
      observation = { error: 'check_failed', message: typeof message === 'string' ? message : String(error) };
    }
    if (this.closing.signal.aborted) return unchanged();
    const checkedMs = this.now().getTime();
    const nextDueMs = scheduled ? nextPollDue(live.record.intervalMs!, live.dueMs, checkedMs) : live.dueMs;
    let changed = false;
    try {
      if (jsonEqual(observation, live.record.observation)) {
        this.dirty.set(live.record.id, { checkedAt: new Date(checkedMs).toISOString(), nextDueAt: new Date(nextDueMs).toISOString() });
      } else {
        changed = await this.commit(live, observation, checkedMs, nextDueMs);
      }
    } finally {
      // Even when storing failed: the change is still unrecorded, so the next poll tries again.
      if (scheduled) this.reschedule(live, nextDueMs);
    }
    return { changed, observation, seq: live.record.seq };
  }

  private async runTimer(live: Live, scheduled: boolean): Promise<CheckResult> {
    const nowMs = this.now().getTime();
    if (!scheduled && nowMs < live.dueMs) return { changed: false, observation: live.record.observation, seq: live.record.seq };
    const fire = fireTimer(live.record, live.schedule, live.dueMs, nowMs);
    let changed: boolean;
    try {
      changed = await this.commit(live, fire.observation, nowMs, fire.nextDueMs);
    } catch (error) {
      // The fire was not recorded: try it again shortly, keeping its deadline for the missed count.
      if (this.live.get(live.record.id) === live && !this.closing.signal.aborted) this.wheel.schedule(live.record.id, nowMs + RETRY_MS);
      throw error;
    }
    this.reschedule(live, changed ? fire.nextDueMs : Date.parse(live.record.nextDueAt));
    return { changed, observation: live.record.observation, seq: live.record.seq };
  }

  /** Stores the new observation and posts its event in one transaction; false if another writer got there first. */
  private async commit(live: Live, observation: Json, checkedMs: number, nextDueMs: number): Promise<boolean> {
    const before = live.record;
    const seq = before.seq + 1;
    const at = new Date(checkedMs).toISOString();
    const nextDueAt = new Date(nextDueMs).toISOString();
    const message = { taskId: before.taskId, recipient: before.agentId, messageId: `monitor:${before.id}:${seq}`, kind: 'message' as const };
    const body = monitorEventBody(before, this.workspaceDir, before.observation, observation, seq, at);
    const stored = await this.store.transaction(async (tx) => {
      if (!(await tx.monitors.recordChange(before.id, { expectedSeq: before.seq, observation, checkedAt: at, nextDueAt }))) return false;
      await tx.inbox.insert({ ...message, sender: `monitor:${before.id}`, body, createdAt: at });
      return true;
    });
    if (!stored) {
      await this.resync(live);
      return false;
    }
    live.record = { ...before, observation, seq, lastCheckedAt: at, lastChangedAt: at, nextDueAt };
    this.dirty.delete(before.id);
    this.emit({ monitor: live.record, previous: before.observation, message });
    return true;
  }

  /** After a lost compare-and-set: take the stored state (another host fired, or the monitor was cancelled). */
  private async resync(live: Live): Promise<void> {
    const stored = await this.store.read((tx) => tx.monitors.get(live.record.id));
    if (!stored || stored.status !== 'active') this.untrack(live.record.id);
    else live.record = stored;
  }

  private reschedule(live: Live, dueMs: number): void {
    if (this.live.get(live.record.id) !== live || this.closing.signal.aborted) return;
    live.dueMs = dueMs;
    this.wheel.schedule(live.record.id, dueMs);
  }

  /** Writes the unchanged polls' lastCheckedAt and nextDueAt, at most once per `checkpointMs` unless forced. */
  private async checkpoint(force: boolean): Promise<void> {
    const nowMs = this.now().getTime();
    if (this.dirty.size === 0 || (!force && nowMs - this.lastCheckpointMs < this.checkpointMs)) return;
    const checks = [...this.dirty].map(([id, check]) => ({ id, ...check }));
    this.dirty.clear();
    this.lastCheckpointMs = nowMs;
    await this.store.transaction((tx) => tx.monitors.recordChecks(checks));
  }

  private enqueue<T>(live: Live, fn: () => Promise<T>): Promise<T> {
    const run = live.chain.then(fn, fn);
    live.chain = run.catch(() => undefined);
    this.background(run);
    return run;
  }

  /** Tracks work that `close` must wait for; a failure is reported, never thrown at the timer. */
  private background(work: Promise<unknown>): void {
    const tracked = work.catch((error: unknown) => this.report(error)).finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }

  private observerFor(target: MonitorTarget): Observer | undefined {
    switch (target.kind) {
      case 'file':
        return fileObserver(target, this.workspaceDir);
      case 'http':
        return httpObserver(target);
      case 'job_log':
        return jobLogObserver(target, this.options.jobs);
      case 'command':
        return commandObserver(target);
      case 'resource':
        return resourceObserver(target, this.store);
      case 'interval':
      case 'cron':
        return undefined;
    }
  }

  /** The checked input; a sandboxed command monitor's cwd is in its work folder, and its target records the sandbox. */
  private checkInput(input: CreateMonitorInput, request: SandboxRequest | undefined): CheckedMonitorInput {
    if (input.kind !== 'command' || request === undefined) return checkMonitorInput(this.workspaceDir, input);
    const sandbox = sandboxFor(this.workspaceDir, request);
    const checked = checkMonitorInput(this.workspaceDir, { ...input, cwd: sandboxCwd(sandbox, input.cwd) });
    return checked.target.kind === 'command' ? { ...checked, target: { ...checked.target, sandbox } } : checked;
  }

  /** A job or resource monitor needs its target to exist when it is created. */
  private async requireTarget(target: MonitorTarget): Promise<void> {
    if (target.kind === 'job_log') await this.options.jobs.get(target.jobId);
    if (target.kind === 'resource') {
      const revision = await this.store.read((tx) => tx.resources.headRevision(target.resourceId));
      if (revision === undefined) throw new CoworkError('not_found', `no resource ${JSON.stringify(target.resourceId)}`, { resourceId: target.resourceId });
    }
  }

  private withUnwritten(record: MonitorRecord): MonitorRecord {
    const unwritten = this.dirty.get(record.id);
    return unwritten && record.status === 'active' ? { ...record, lastCheckedAt: unwritten.checkedAt, nextDueAt: unwritten.nextDueAt } : record;
  }

  private emit(event: MonitorEvent): void {
    this.events.emit(event);
  }

  private report(error: unknown): void {
    this.options.onBackgroundError?.(error);
  }
}

function checkOwner(owner: MonitorOwner): { taskId: string; agentId: string } {
  if (typeof owner?.taskId !== 'string' || owner.taskId.trim() === '') {
    throw new CoworkError('invalid_input', 'a monitor needs an owner task (owner.taskId)', { field: 'taskId' });
  }
  const agentId = owner.agentId ?? 'main';
  if (typeof agentId !== 'string' || agentId.trim() === '') throw new CoworkError('invalid_input', 'owner.agentId must be a non-empty string', { field: 'agentId' });
  return { taskId: owner.taskId, agentId };
}

function isMonitorRef(value: Json | undefined): value is { monitorId: string } {
  return isPlainObject(value) && typeof value.monitorId === 'string';
}
