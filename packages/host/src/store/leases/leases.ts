import type { LeaseRecord } from '../lease-records';
import type { Store } from '../store';
import { newHolderId, provablyGone, type HolderId } from './holder';

/** How long a lease runs without renewal unless configured (COWORK_LEASE_MS). */
export const DEFAULT_LEASE_MS = 15_000;

export interface LeaseSettings {
  /** The machine's name in holder ids (default its hostname). */
  readonly hostId?: string;
  /** How long a lease runs unless renewed; it is renewed every third of that. */
  readonly durationMs?: number;
}

/** A lease this host holds; `release` ends it once every handle on the key has released. */
export interface LeaseHandle {
  readonly key: string;
  release(): Promise<void>;
}

/** Taking a lease: a handle while held, else the lease as its other holder has it. */
export type HoldResult = { readonly held: LeaseHandle } | { readonly other: LeaseRecord };

interface Held {
  count: number;
  timer: NodeJS.Timeout;
  /** Local time of the last renewal the database confirmed. */
  confirmedMs: number;
  readonly lost: Set<() => void>;
}

/**
 * This host's leases (see store/lease-records.ts): taken in one write transaction, renewed on a
 * timer every third of their duration, released when done. A renewal that finds another holder,
 * or that cannot reach the store for a whole duration, counts the lease as lost: every holder's
 * `onLost` runs, so the work stops instead of running in two places. A lease whose holder ran on
 * this machine in a process that no longer exists is taken at once rather than waited out.
 */
export class Leases {
  readonly holder: HolderId;
  readonly durationMs: number;
  private readonly held = new Map<string, Held>();
  private closed = false;

  constructor(
    private readonly store: Store,
    settings: LeaseSettings = {},
    private readonly onBackgroundError: (error: unknown) => void = () => undefined,
  ) {
    this.holder = newHolderId(settings.hostId);
    this.durationMs = settings.durationMs ?? DEFAULT_LEASE_MS;
  }

  /** Takes (or joins this host's hold on) `key`; `onLost` runs if the lease is lost while held. */
  async hold(key: string, onLost: () => void): Promise<HoldResult> {
    const existing = this.held.get(key);
    if (existing) return { held: this.join(key, existing, onLost) };
    const lease = await this.take(key);
    if (lease.holder !== this.holder.text) return { other: lease };
    const again = this.held.get(key);
    if (again) return { held: this.join(key, again, onLost) };
    const entry: Held = { count: 0, confirmedMs: Date.now(), lost: new Set(), timer: setInterval(() => void this.renew(key), Math.max(1, Math.floor(this.durationMs / 3))) };
    entry.timer.unref();
    this.held.set(key, entry);
    return { held: this.join(key, entry, onLost) };
  }

  /** Whether this host holds `key` now (as far as its last renewal knows). */
  holds(key: string): boolean {
    return this.held.has(key);
  }

  async current(key: string): Promise<LeaseRecord | undefined> {
    return this.store.read((tx) => tx.leases.get(key));
  }

  /** The live leases whose key begins with `prefix` (any holder's). */
  async live(prefix: string): Promise<LeaseRecord[]> {
    return this.store.read((tx) => tx.leases.live(prefix));
  }

  /** Releases every lease this host holds (the host is closing). */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.held.keys()].map((key) => this.drop(key)));
  }

  private async take(key: string): Promise<LeaseRecord> {
    const me = this.holder.text;
    const lease = await this.store.transaction((tx) => tx.leases.acquire(key, me, this.durationMs));
    if (lease.holder === me || !provablyGone(lease.holder, this.holder)) return lease;
    return this.store.transaction((tx) => tx.leases.acquire(key, me, this.durationMs, lease.holder));
  }

  private join(key: string, entry: Held, onLost: () => void): LeaseHandle {
    entry.count += 1;
    entry.lost.add(onLost);
    let released = false;
    return {
      key,
      release: async () => {
        if (released) return;
        released = true;
        entry.lost.delete(onLost);
        entry.count -= 1;
        if (entry.count === 0 && this.held.get(key) === entry) await this.drop(key);
      },
    };
  }

  private async renew(key: string): Promise<void> {
    const entry = this.held.get(key);
    if (!entry || this.closed) return;
    try {
      const lease = await this.store.transaction((tx) => tx.leases.acquire(key, this.holder.text, this.durationMs));
      if (this.held.get(key) !== entry) return;
      if (lease.holder === this.holder.text) entry.confirmedMs = Date.now();
      else this.lose(key, entry);
    } catch (error) {
      // An unreachable store: the lease may still be ours, until a whole duration passed unconfirmed.
      if (this.held.get(key) === entry && Date.now() - entry.confirmedMs >= this.durationMs) this.lose(key, entry);
      else this.onBackgroundError(error);
    }
  }

  private lose(key: string, entry: Held): void {
    clearInterval(entry.timer);
    this.held.delete(key);
    for (const onLost of entry.lost) onLost();
  }

  private async drop(key: string): Promise<void> {
    const entry = this.held.get(key);
    if (!entry) return;
    clearInterval(entry.timer);
    this.held.delete(key);
    await this.store.transaction((tx) => tx.leases.release(key, this.holder.text)).catch((error: unknown) => this.onBackgroundError(error));
  }
}
