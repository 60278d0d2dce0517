import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CoworkError, isCoworkError } from '../errors';
import type { ExternalAdapter, ExternalJobs, ExternalSession } from '../plugins/external';
import { callPluginAsync, type RegisteredKind } from '../plugins/registry';
import type { Json, ResourceRecord } from '../store/records';
import type { LeaseHandle, Leases } from '../store/leases/leases';
import { Mutex } from '../util/mutex';
import { holdExternalLease } from './external-lease';

export interface ExternalSessionsOptions {
  readonly workspaceDir: string;
  readonly jobs: ExternalJobs;
  /** The host's leases: a session is opened only under its resource's lease (./external-lease.ts). */
  readonly leases: Leases;
}

/**
 * The open sessions of `external` resources in this host process: one per resource, opened lazily
 * on first use, each with its own lock so that observing, recording and performing an op never
 * interleave for one resource (the application is changed by one op at a time), and a lease in
 * the store so that no other host, on this machine or another, drives the same application
 * meanwhile (see ./external-lease.ts). A session whose lease is lost is closed.
 */
export class ExternalSessions {
  private readonly sessions = new Map<string, Promise<ExternalSession<Json, Json>>>();
  private readonly locks = new Map<string, Mutex>();
  /** The lease of each open session. */
  private readonly held = new Map<string, LeaseHandle>();
  private closed = false;

  constructor(private readonly options: ExternalSessionsOptions) {}

  /** Runs `fn` holding the resource's lock. */
  locked<T>(resourceId: string, fn: () => Promise<T>): Promise<T> {
    let lock = this.locks.get(resourceId);
    if (!lock) this.locks.set(resourceId, (lock = new Mutex()));
    return lock.run(fn);
  }

  /**
   * The resource's session, opened on first use from its recorded head, which `load` reads (only
   * then: an open session is reused without reading the resource).
   */
  session(resourceId: string, kind: RegisteredKind, load: () => Promise<ResourceRecord>): Promise<ExternalSession<Json, Json>> {
    if (this.closed) return Promise.reject(new CoworkError('external_unavailable', 'the host is closing', { reason: 'closing' }));
    const open = this.sessions.get(resourceId);
    if (open) return open;
    const adapter = kind.kind.external;
    if (!adapter) throw new Error(`kind ${kind.kind.name} has no external adapter`);
    const opening: Promise<ExternalSession<Json, Json>> = this.open(resourceId, kind, adapter, load).catch((error: unknown) => {
      // A failed open is not cached: the next use tries again.
      if (this.sessions.get(resourceId) === opening) this.sessions.delete(resourceId);
      throw isCoworkError(error) && error.code === 'plugin_failed'
        ? new CoworkError('external_unavailable', `could not reach the application of ${resourceId}: ${error.message}`, { reason: error.message, resourceId })
        : error;
    });
    this.sessions.set(resourceId, opening);
    return opening;
  }

  /** Resources with an open (or opening) session: what the poll observes. */
  openResourceIds(): string[] {
    return [...this.sessions.keys()];
  }

  async close(): Promise<void> {
    this.closed = true;
    const sessions = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.allSettled(sessions.map(async (s) => (await s).close()));
    const held = [...this.held.values()];
    this.held.clear();
    await Promise.allSettled(held.map((lease) => lease.release()));
  }

  /** Takes the resource's lease (refused while another host holds it), then opens the application. */
  private async open(resourceId: string, kind: RegisteredKind, adapter: ExternalAdapter<Json, Json>, load: () => Promise<ResourceRecord>): Promise<ExternalSession<Json, Json>> {
    const resourceDir = join(this.options.workspaceDir, 'resources', resourceId);
    mkdirSync(resourceDir, { recursive: true });
    const lease = await holdExternalLease(this.options.leases, resourceId, () => void this.lost(resourceId));
    try {
      const resource = await load();
      const session = await callPluginAsync(kind.plugin, 'open external session', () =>
        adapter.open({ id: resource.id, revision: resource.revision, content: resource.content }, { workspaceDir: this.options.workspaceDir, resourceDir, jobs: this.options.jobs }),
      );
      this.held.set(resourceId, lease);
      return session;
    } catch (error) {
      await lease.release();
      throw error;
    }
  }

  /**
   * The lease could not be renewed in time: another host may drive the application now, so this
   * one stops (after the op in flight, under the lock). The next use takes the lease again, or is
   * refused while the other host holds it.
   */
  private lost(resourceId: string): Promise<void> {
    return this.locked(resourceId, async () => {
      const session = this.sessions.get(resourceId);
      this.sessions.delete(resourceId);
      this.held.delete(resourceId);
      await session?.then((s) => s.close()).catch(() => undefined);
    });
  }
}
