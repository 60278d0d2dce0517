/**
 * What every subscriber received, kept in one place: delivery latencies, revisions that came out
 * of order or not at all, and how many subscribers have each revision, so the driver can wait
 * until a commit has reached everyone.
 */
export class DeliveryTally {
  readonly latenciesMs: number[] = [];
  /** Revisions a subscriber skipped, or received twice or out of order. */
  gaps = 0;
  private readonly delivered = new Map<number, number>();
  private waiter: { revision: number; resolve: (complete: boolean) => void; timer: NodeJS.Timeout } | undefined;
  /** Revisions at or below this are warm-up: counted for completeness, their latency not kept. */
  measureAfter = Number.POSITIVE_INFINITY;

  constructor(readonly subscribers: number) {}

  record(revision: number, latencyMs: number): void {
    if (revision > this.measureAfter) this.latenciesMs.push(latencyMs);
    const reached = (this.delivered.get(revision) ?? 0) + 1;
    this.delivered.set(revision, reached);
    if (reached === this.subscribers && this.waiter?.revision === revision) this.settle(true);
  }

  /** Resolves true once every subscriber has `revision`, or false after `timeoutMs` (then some never got it). */
  allReceived(revision: number, timeoutMs: number): Promise<boolean> {
    if ((this.delivered.get(revision) ?? 0) >= this.subscribers) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.settle(false), timeoutMs);
      this.waiter = { revision, resolve, timer };
    });
  }

  /** Deliveries of revisions in `from..to`, each subscriber counted once per revision it got. */
  deliveries(from: number, to: number): number {
    let total = 0;
    for (let revision = from; revision <= to; revision++) total += this.delivered.get(revision) ?? 0;
    return total;
  }

  private settle(complete: boolean): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    if (!waiter) return;
    clearTimeout(waiter.timer);
    waiter.resolve(complete);
  }
}
