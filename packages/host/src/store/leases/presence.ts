import type { LeaseHandle, Leases } from './leases';

/** The prefix of every presence lease of the hosts on machine `hostId`. */
function presencePrefix(hostId: string): string {
  return `host:${hostId}:`;
}

/**
 * That this host is running: it holds the lease `host:<holder>` (`host:<host id>:<pid>:<nonce>`)
 * until it closes, renewed with its other leases: a long-lived host from its start, a short one
 * (a CLI command) from the moment it starts a job. Each host holds its own key, so hosts never
 * contend for it, and a host that closes or dies takes nothing from the others on its machine.
 * A machine counts as running while any of its hosts' presence leases is live: what a host on
 * another machine goes by for the jobs started there, whose processes it cannot check itself
 * (jobs/reconcile.ts). A presence lost (the store unreachable for a whole lease) is taken again.
 */
export class HostPresence {
  private handle: LeaseHandle | undefined;
  private started: Promise<void> | undefined;
  private retry: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly leases: Leases,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  /** This machine's host id. */
  get hostId(): string {
    return this.leases.holder.hostId;
  }

  /** Takes the presence lease, once; later calls wait for the first. It is then held until `stop`. */
  start(): Promise<void> {
    return (this.started ??= this.take());
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    const handle = this.handle;
    this.handle = undefined;
    await handle?.release();
  }

  /** Whether a host on machine `hostId` is running now (holds a live presence lease). */
  async machineRunning(hostId: string): Promise<boolean> {
    return (await this.leases.live(presencePrefix(hostId))).length > 0;
  }

  private async take(): Promise<void> {
    if (this.stopped) return;
    try {
      const taken = await this.leases.hold(`host:${this.leases.holder.text}`, () => this.later());
      if (!('held' in taken)) return this.later();
      if (this.stopped) return void (await taken.held.release());
      this.handle = taken.held;
    } catch (error) {
      this.onError(error);
      this.later();
    }
  }

  private later(): void {
    this.handle = undefined;
    if (this.stopped) return;
    this.retry = setTimeout(() => void this.take(), Math.max(1, Math.floor(this.leases.durationMs / 3)));
    this.retry.unref();
  }
}
