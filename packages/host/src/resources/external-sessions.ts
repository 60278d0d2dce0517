import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CoworkError, isCoworkError } from '../errors';
import type { ExternalJobs, ExternalSession } from '../plugins/external';
import { callPluginAsync, type RegisteredKind } from '../plugins/registry';
import type { Json, ResourceRecord } from '../store/records';
import { Mutex } from '../util/mutex';
import { takeExternalLease } from './external-lease';

export interface ExternalSessionsOptions {
  readonly workspaceDir: string;
  readonly jobs: ExternalJobs;
}

/**
 * The open sessions of `external` resources in this host process: one per resource, opened lazily
 * on first use, each with its own lock so that observing, recording and performing an op never
 * interleave for one resource (the application is changed by one op at a time), and a lease so
 * that no other host drives the same application meanwhile (see ./external-lease.ts).
 */
export class ExternalSessions {
  private readonly sessions = new Map<string, Promise<ExternalSession<Json, Json>>>();
  private readonly locks = new Map<string, Mutex>();
  private readonly leases = new Map<string, () => void>();
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
    const resourceDir = join(this.options.workspaceDir, 'resources', resourceId);
    mkdirSync(resourceDir, { recursive: true });
    this.leases.set(resourceId, takeExternalLease(resourceDir, resourceId));
    const opening = load()
      .then((resource) =>
        callPluginAsync(kind.plugin, 'open external session', () =>
          adapter.open(
            { id: resource.id, revision: resource.revision, content: resource.content },
            { workspaceDir: this.options.workspaceDir, resourceDir, jobs: this.options.jobs },
          ),
        ),
      )
      .catch((error: unknown) => {
        // A failed open is not cached: the next use tries again.
        this.sessions.delete(resourceId);
        this.releaseLease(resourceId);
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
    for (const id of [...this.leases.keys()]) this.releaseLease(id);
  }

  private releaseLease(resourceId: string): void {
    this.leases.get(resourceId)?.();
    this.leases.delete(resourceId);
  }
}
