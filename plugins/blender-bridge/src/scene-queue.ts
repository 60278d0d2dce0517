import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoworkError } from '@cowork/host';
import { BlenderProcess, childLauncher, socketPathFor, type Launcher } from './bridge/blender-process';
import type { Scene } from './content';
import { DEFAULT_LIMITS, type SceneQueueLimits } from './limits';
import { BlenderStarts } from './starts';
import { boundedWait, Slots } from './wait';

/** What a request's work gets: a scratch directory, and a short-lived Blender when it needs one. */
export interface SceneWorkContext {
  /** A fresh directory, removed when the work ends. */
  readonly dir: string;
  /** Aborted when every request sharing this work has left: stop. */
  readonly signal: AbortSignal;
  /**
   * A Blender holding `content`, counted against `maxBlenders` and started in its turn among the
   * process's starts; stopped when the work ends. Once per work.
   */
  shortLived(content: Scene): Promise<BlenderProcess>;
}

/** One resource's requests: run one at a time, identical ones shared. */
interface Lane {
  tail: Promise<void>;
  /** Requests waiting for their turn. */
  pending: number;
  /** Requests not yet ended (waiting, running, or stopping their Blender). */
  active: number;
  readonly shared: Map<string, Job>;
}

interface Job {
  readonly promise: Promise<unknown>;
  readonly stop: AbortController;
  subscribers: number;
}

/**
 * Blender work on scenes in this process. A Blender takes a core and ~200 MB to start and a
 * render takes a core for a second, so a burst of requests (a page reloaded by twenty people after
 * a restart) must wait rather than start twenty Blenders that time out together:
 * - requests for one resource run one at a time, in arrival order (one scene, one Blender);
 * - a request identical to one waiting or running (same resource and `key`: format and content)
 *   shares its result instead of doing the work again;
 * - short-lived Blenders across resources are capped at `maxBlenders`, and start in turn with the
 *   scenes' long-lived ones (`starts`: at most `maxStarting` at once);
 * - a request waits at most `waitMs` for its turn and its Blender, and at most `maxQueued` wait;
 *   beyond either it fails with `busy` and nothing is done.
 */
export class SceneQueue {
  private readonly slots: Slots;
  private readonly lanes = new Map<string, Lane>();

  constructor(
    readonly limits: SceneQueueLimits = DEFAULT_LIMITS,
    private readonly launcher: Launcher = childLauncher,
    readonly starts: BlenderStarts = new BlenderStarts(limits),
  ) {
    this.slots = new Slots(limits.maxBlenders);
  }

  /** Requests waiting now, for their turn or for a Blender. */
  get queued(): number {
    let pending = this.slots.waiting;
    for (const lane of this.lanes.values()) pending += lane.pending;
    return pending;
  }

  /** Runs `work` for `resourceId` in its turn, or shares the identical request's result; `signal` leaves. */
  run<T>(resourceId: string, key: string, signal: AbortSignal, work: (context: SceneWorkContext) => Promise<T>): Promise<T> {
    signal.throwIfAborted();
    const lane = this.lane(resourceId);
    let job = lane.shared.get(key);
    if (!job) {
      if (this.queued >= this.limits.maxQueued) throw this.busy(resourceId, 0, `${this.queued} requests are already waiting (at most ${this.limits.maxQueued})`);
      job = this.enqueue(resourceId, lane, key, work);
    }
    return subscribe(job, signal) as Promise<T>;
  }

  private lane(resourceId: string): Lane {
    let lane = this.lanes.get(resourceId);
    if (!lane) this.lanes.set(resourceId, (lane = { tail: Promise.resolve(), pending: 0, active: 0, shared: new Map() }));
    return lane;
  }

  private enqueue<T>(resourceId: string, lane: Lane, key: string, work: (context: SceneWorkContext) => Promise<T>): Job {
    const enqueuedAt = Date.now();
    const stop = new AbortController();
    const tooLong = (): Error => this.busy(resourceId, Date.now() - enqueuedAt, `waited the limit of ${this.limits.waitMs} ms`);
    const turn = lane.tail;
    lane.pending += 1;
    lane.active += 1;
    const promise = (async () => {
      try {
        await boundedWait(turn, stop.signal, this.limits.waitMs, tooLong);
      } finally {
        lane.pending -= 1;
      }
      return this.perform(stop.signal, enqueuedAt + this.limits.waitMs, tooLong, work);
    })();
    const job: Job = { promise, stop, subscribers: 0 };
    lane.shared.set(key, job);
    // A job that gave up or was abandoned is shared no more; new requests start afresh.
    stop.signal.addEventListener('abort', () => lane.shared.get(key) === job && lane.shared.delete(key), { once: true });
    const settled = promise.then(ignore, ignore);
    // The next request's turn comes when this one's turn came and its work ended.
    lane.tail = turn.then(() => settled);
    void settled.then(() => {
      if (lane.shared.get(key) === job) lane.shared.delete(key);
      lane.active -= 1;
      if (lane.active === 0 && this.lanes.get(resourceId) === lane) this.lanes.delete(resourceId);
    });
    return job;
  }

  private async perform<T>(signal: AbortSignal, waitUntil: number, tooLong: () => Error, work: (context: SceneWorkContext) => Promise<T>): Promise<T> {
    const dir = mkdtempSync(join(tmpdir(), 'cowork-blender-'));
    let blender: BlenderProcess | undefined;
    let release: (() => void) | undefined;
    const kill = (): void => void blender?.launched.kill();
    signal.addEventListener('abort', kill, { once: true });
    try {
      return await work({
        dir,
        signal,
        shortLived: async (content) => {
          if (release) throw new Error('one short-lived Blender per request');
          release = await this.slots.acquire(signal, waitUntil - Date.now(), tooLong);
          blender = await this.starts.run(() => BlenderProcess.start(this.launcher, { socketPath: socketPathFor(dir), cwd: dir, name: 'blender (short-lived)' }), {
            signal,
            timeoutMs: waitUntil - Date.now(),
            onTimeout: tooLong,
          });
          signal.throwIfAborted();
          await blender.load(content);
          signal.throwIfAborted();
          return blender;
        },
      });
    } finally {
      signal.removeEventListener('abort', kill);
      await blender?.stop();
      release?.();
      rmSync(dir, { recursive: true, force: true });
    }
  }

  private busy(resourceId: string, waitedMs: number, why: string): CoworkError {
    return new CoworkError('busy', `Blender is busy with other requests for scenes; ${why}. Nothing was done: retry later`, {
      waitedMs,
      queued: this.queued,
      resourceId,
      waitLimitMs: this.limits.waitMs,
      maxQueued: this.limits.maxQueued,
    });
  }
}

/** The caller's view of a shared job: it leaves when its own signal aborts; the last to leave stops the job. */
function subscribe(job: Job, signal: AbortSignal): Promise<unknown> {
  job.subscribers += 1;
  return new Promise((resolve, reject) => {
    const leave = (): void => {
      reject(signal.reason);
      job.subscribers -= 1;
      if (job.subscribers === 0) job.stop.abort(new Error('every request waiting for this work was cancelled'));
    };
    signal.addEventListener('abort', leave, { once: true });
    job.promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', leave));
  });
}

/** A short key for a content: identical requests share work only for identical contents. */
export function contentKey(content: Scene): string {
  return createHash('sha256').update(JSON.stringify(content)).digest('hex').slice(0, 32);
}

function ignore(): void {}
