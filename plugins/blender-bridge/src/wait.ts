/**
 * Bounded waits: a promise raced against an abort signal and a time limit, and a FIFO counting
 * semaphore whose waiters leave the same way. Small and generic; the host has no such helper yet.
 */

/**
 * Resolves when `promise` does; rejects with `signal.reason` when the signal aborts first, or with
 * `onTimeout()` when `timeoutMs` passes first. `promise` is not cancelled, only no longer awaited.
 */
export function boundedWait<T>(promise: Promise<T>, signal: AbortSignal, timeoutMs: number, onTimeout: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const leave = (): void => reject(signal.reason);
    const timer = setTimeout(() => reject(onTimeout()), Math.max(0, timeoutMs));
    signal.addEventListener('abort', leave, { once: true });
    promise
      .then(resolve, reject)
      .finally(() => {
        clearTimeout(timer);
        signal.removeEventListener('abort', leave);
      });
  });
}

/** At most `size` holders at once; the others wait in arrival order. */
export class Slots {
  private free: number;
  private readonly waiters: Array<(release: () => void) => void> = [];

  constructor(readonly size: number) {
    this.free = size;
  }

  /** How many are waiting for a slot. */
  get waiting(): number {
    return this.waiters.length;
  }

  /**
   * Resolves with the function that gives the slot back (call it once). A waiter that leaves
   * (abort or time limit) is removed and takes no slot.
   */
  acquire(signal: AbortSignal, timeoutMs: number, onTimeout: () => Error): Promise<() => void> {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.free > 0) {
      this.free -= 1;
      return Promise.resolve(this.releaser());
    }
    let grant!: (release: () => void) => void;
    const granted = new Promise<() => void>((resolve) => (grant = resolve));
    this.waiters.push(grant);
    return boundedWait(granted, signal, timeoutMs, onTimeout).catch((error: unknown) => {
      const at = this.waiters.indexOf(grant);
      if (at >= 0) this.waiters.splice(at, 1);
      else void granted.then((release) => release()); // granted as it left: hand the slot on
      throw error;
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiters.shift();
      if (next) next(this.releaser());
      else this.free += 1;
    };
  }
}
