import type { PluginRegistry } from '../plugins/registry';
import type { Store } from '../store/store';
import type { ExternalSessions } from './external-sessions';
import type { RevisionEvents } from './revision-events';

export interface ResourceLimits {
  /** Largest content or op, in bytes of JSON. */
  readonly maxContentBytes: number;
  /** A full snapshot is stored every this many revisions; others are rebuilt by replaying ops. */
  readonly snapshotEvery: number;
}

export const DEFAULT_RESOURCE_LIMITS: ResourceLimits = {
  maxContentBytes: 8 * 1024 * 1024,
  snapshotEvery: 32,
};

/** What the resource protocol's modules share; created once per host. */
export interface ResourceDeps {
  readonly store: Store;
  readonly registry: PluginRegistry;
  readonly events: RevisionEvents;
  readonly limits: ResourceLimits;
  /** Sessions of `external` resources; without it, external kinds answer `external_unavailable`. */
  readonly external?: ExternalSessions;
  /** The current time as an ISO string (injectable for tests). */
  now(): string;
}
