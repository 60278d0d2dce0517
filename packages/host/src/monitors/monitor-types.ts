import type { MonitorRecord } from '../store/monitor-records';
import type { Json, Operator } from '../store/records';
import type { Store } from '../store/store';
import type { Leases } from '../store/leases/leases';
import type { SandboxRequest } from '../jobs/sandbox-policy';
import type { JobLogSource } from './observe-job-log';

/** The monitor service's options, and what it takes and gives (see monitor-service.ts). */

export interface MonitorServiceOptions {
  readonly store: Store;
  readonly workspaceDir: string;
  /** Job logs for `job_log` monitors (and `get` to check that a job exists). */
  readonly jobs: JobLogSource & { get(id: string): Promise<unknown> };
  readonly now?: () => Date;
  /** How often polls that saw no change are written down (`lastCheckedAt`), in one transaction. Default 10 s. */
  readonly checkpointMs?: number;
  /** Checks run at once when many monitors are due together. Default 8. */
  readonly maxConcurrentChecks?: number;
  /** Called when a background check or checkpoint fails. */
  readonly onBackgroundError?: (error: unknown) => void;
  /**
   * Whether `open` schedules the stored active monitors (default true). A short-lived process (a
   * CLI command) passes false: the long-lived host polls them, and a command must not run their
   * checks (HTTP calls, commands) as a side effect of reading a resource.
   */
  readonly pollStored?: boolean;
  /**
   * With several hosts on one workspace, only the one holding the `monitors` lease polls (see
   * poll-lease.ts); the others take over when it stops renewing. Without: this service polls.
   */
  readonly leases?: Leases;
}

/** Whose monitor it is: its events go to this agent's Inbox (default `main`) in this task. */
export interface MonitorOwner {
  readonly taskId: string;
  readonly agentId?: string;
}

export interface CreateMonitorOptions {
  readonly owner: MonitorOwner;
  readonly operator?: Operator;
  /** A repeated create with a known key returns the monitor it created instead of another. */
  readonly idempotencyKey?: string;
  /**
   * A `command` monitor's command runs under bubblewrap (jobs/sandbox.ts), confined to the work
   * folder (an agent's: its task's; `cwd` is then relative to it, default the work folder), network only
   * when asked (the caller checks the grant). `sandbox_unavailable` when bwrap is missing. Other kinds ignore it.
   */
  readonly sandbox?: SandboxRequest;
}

/** One event: the monitor after it, the observation before it, and the Inbox message it was posted as. */
export interface MonitorEvent {
  readonly monitor: MonitorRecord;
  readonly previous: Json;
  readonly message: { readonly taskId: string; readonly recipient: string; readonly messageId: string; readonly kind: 'message' };
}

export type MonitorEventListener = (event: MonitorEvent) => void;

/** What one check saw. `changed`: it emitted an event (for a timer: it fired). */
export interface CheckResult {
  readonly changed: boolean;
  readonly observation: Json;
  readonly seq: number;
}
