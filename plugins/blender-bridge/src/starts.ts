import { CoworkError } from '@cowork/host';
import type { SceneQueueLimits } from './limits';
import { Slots } from './wait';

const NEVER = new AbortController().signal;

/**
 * Blender starts in this process. A Blender takes a core for a few seconds to start, so scenes
 * opened together (commits, syncs and the poll after a host restart) would start their Blenders
 * together and all miss the bridge's ready timeout; starts therefore take turns, at most
 * `maxStarting` at once (long-lived scene Blenders and short-lived ones alike), in arrival order.
 * A start waits at most `waitMs` for its turn, then fails with `busy` having started nothing.
 * A turn lasts until the Blender's bridge listens (or the start fails).
 */
export class BlenderStarts {
  private readonly slots: Slots;

  constructor(readonly limits: Pick<SceneQueueLimits, 'maxStarting' | 'waitMs'>) {
    this.slots = new Slots(limits.maxStarting);
  }

  /** Starts waiting for their turn now. */
  get waiting(): number {
    return this.slots.waiting;
  }

  /**
   * Runs `start` in its turn. By default it waits at most `waitMs` and then rejects with `busy`
   * for `resourceId`; a caller with its own deadline and error passes `timeoutMs` and `onTimeout`.
   */
  async run<T>(
    start: () => Promise<T>,
    options: { resourceId?: string; signal?: AbortSignal; timeoutMs?: number; onTimeout?: () => Error } = {},
  ): Promise<T> {
    const askedAt = Date.now();
    const onTimeout = options.onTimeout ?? (() => this.busy(options.resourceId, Date.now() - askedAt));
    const release = await this.slots.acquire(options.signal ?? NEVER, options.timeoutMs ?? this.limits.waitMs, onTimeout);
    try {
      return await start();
    } finally {
      release();
    }
  }

  private busy(resourceId: string | undefined, waitedMs: number): CoworkError {
    return new CoworkError(
      'busy',
      `Blender is busy starting the Blenders of other scenes (at most ${this.limits.maxStarting} start at once); this one waited the limit of ${this.limits.waitMs} ms for its turn. Nothing was done: retry later`,
      { waitedMs, queued: this.waiting, ...(resourceId ? { resourceId } : {}), waitLimitMs: this.limits.waitMs, maxStarting: this.limits.maxStarting },
    );
  }
}
