import type { Json, Operator } from './records';

/** What a monitor watches. Timers (`interval`, `cron`) observe nothing but the clock. */
export type MonitorKind = 'file' | 'http' | 'job_log' | 'command' | 'resource' | 'interval' | 'cron';

/** `active` while it polls; `cancelled` for good (a cancelled monitor is never resumed). */
export type MonitorStatus = 'active' | 'cancelled';

/** A monitor's checked target, as stored. Paths are absolute; times are milliseconds. */
export type MonitorTarget =
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'http'; readonly url: string; readonly jsonPath: string | null; readonly timeoutMs: number }
  | { readonly kind: 'job_log'; readonly jobId: string; readonly pattern: string; readonly stream: 'stdout' | 'stderr' }
  | {
      readonly kind: 'command';
      readonly command: string;
      readonly args: readonly string[];
      readonly cwd: string;
      readonly timeoutMs: number;
      /** Run under bubblewrap (jobs/sandbox.ts, its SandboxSpec): an agent's monitor. Absent: unsandboxed. */
      readonly sandbox?: { readonly workDir: string; readonly hidden: readonly string[]; readonly network: boolean };
    }
  | { readonly kind: 'resource'; readonly resourceId: string }
  | { readonly kind: 'interval' }
  | { readonly kind: 'cron'; readonly expression: string };

/**
 * One monitor and its last observation. `seq` counts the events it emitted (its Inbox messages are
 * `monitor:<id>:<seq>`); `observation` changes only together with `seq`, in the transaction that
 * posts the event, so a crash can neither lose an event nor fire it twice.
 */
export interface MonitorRecord {
  readonly id: string;
  readonly name: string | null;
  readonly kind: MonitorKind;
  readonly target: MonitorTarget;
  /** Poll period (and the period of an `interval` timer); null for `cron`. */
  readonly intervalMs: number | null;
  /** The owner: events go to this agent's Inbox in this task. */
  readonly taskId: string;
  readonly agentId: string;
  readonly status: MonitorStatus;
  readonly observation: Json;
  readonly seq: number;
  readonly createdBy: Operator | null;
  readonly createdAt: string;
  /** Written in batches (a checkpoint), so it may lag the latest poll by a few seconds. */
  readonly lastCheckedAt: string | null;
  readonly lastChangedAt: string | null;
  readonly nextDueAt: string;
  readonly cancelledAt: string | null;
}

/** An observation that differs from the stored one: stored only if `expectedSeq` is still current. */
export interface MonitorChange {
  readonly expectedSeq: number;
  readonly observation: Json;
  readonly checkedAt: string;
  readonly nextDueAt: string;
}

export interface MonitorRepo {
  insert(record: MonitorRecord): Promise<void>;
  get(id: string): Promise<MonitorRecord | undefined>;
  /** Oldest first. */
  list(options?: { taskId?: string; status?: MonitorStatus; limit?: number }): Promise<MonitorRecord[]>;
  /**
   * Compare-and-set on `seq`: stores the observation with `seq = expectedSeq + 1` if the monitor is
   * active and still at `expectedSeq`. Returns false, writing nothing, otherwise.
   */
  recordChange(id: string, change: MonitorChange): Promise<boolean>;
  /** Records polls that saw no change (the checkpoint); cancelled monitors are left alone. */
  recordChecks(checks: readonly { id: string; checkedAt: string; nextDueAt: string }[]): Promise<void>;
  /** Returns false when the monitor is unknown or already cancelled. */
  cancel(id: string, at: string): Promise<boolean>;
}
