import type { LeaseHandle, Leases } from '../store/leases/leases';

/** The lease of the monitors' polling: one host on a workspace polls them. */
export const MONITORS_LEASE = 'monitors';

/**
 * Holds the monitors' lease, or keeps trying to take it (every third of the lease's duration):
 * `onTick(true)` each time this host holds it (the first time after taking it, `gained` is true),
 * and `onLost` when a renewal found it gone. Hosts that do not hold it poll nothing.
 */
export class PollLease {
  private handle: LeaseHandle | undefined;
  private timer: NodeJS.Timeout | undefined;
  private busy = false;
  private stopped = false;

  constructor(
    private readonly leases: Leases,
    private readonly callbacks: { onTick(gained: boolean): Promise<void>; onLost(): void; onError(error: unknown): void },
  ) {}

  get held(): boolean {
    return this.handle !== undefined;
  }

  /** Takes the lease if it can (awaited: a single host polls from its first moment), then keeps trying. */
  async start(): Promise<void> {
    await this.attempt();
    this.timer = setInterval(() => void this.attempt(), Math.max(1, Math.floor(this.leases.durationMs / 3)));
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    const handle = this.handle;
    this.handle = undefined;
    await handle?.release();
  }

  private async attempt(): Promise<void> {
    if (this.busy || this.stopped) return;
    this.busy = true;
    try {
      const gained = this.handle === undefined;
      if (gained) {
        const taken = await this.leases.hold(MONITORS_LEASE, () => {
          this.handle = undefined;
          this.callbacks.onLost();
        });
        if (!('held' in taken)) return;
        if (this.stopped) return void (await taken.held.release());
        this.handle = taken.held;
      }
      await this.callbacks.onTick(gained);
    } catch (error) {
      this.callbacks.onError(error);
    } finally {
      this.busy = false;
    }
  }
}
