import type { Operator } from './records';

/**
 * `running` until the job's end is known. `succeeded`: exit code 0. `failed`: any other exit code,
 * a signal, or a command that could not be started. `cancelled`: a cancel was requested before the
 * job ended. `uncertain`: the process is gone and nothing recorded how it ended; never reported
 * as success.
 */
export type JobStatus = 'running' | 'succeeded' | 'failed' | 'cancelled' | 'uncertain';

/**
 * Who a job's processes are. A pid alone is not an identity (pids are reused), so each pid comes
 * with the process's start time (clock ticks since boot, from /proc/<pid>/stat); null where the
 * platform has no such number.
 */
export interface JobProcessIdentity {
  /** The command's process, leader of its own process group (`pgid` equals it). */
  readonly pid: number;
  readonly pgid: number;
  readonly processStartTime: number | null;
  /** The small supervisor that waits for the command and records its exit. */
  readonly supervisorPid: number;
  readonly supervisorStartTime: number | null;
  readonly startedAt: string;
}

/** How a job ended; written once, only while the job is `running`. */
export interface JobEnd {
  readonly status: Exclude<JobStatus, 'running'>;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly error: string | null;
  readonly endedAt: string;
}

/** One background job. Its files (spec, logs, exit record) live in `<workspace>/jobs/<id>/`. */
export interface JobRecord {
  readonly id: string;
  readonly name: string | null;
  readonly command: string;
  readonly args: readonly string[];
  /** Absolute working directory, inside the workspace. */
  readonly cwd: string;
  /** Variables set on top of the host's environment. */
  readonly env: Readonly<Record<string, string>>;
  readonly status: JobStatus;
  readonly pid: number | null;
  readonly pgid: number | null;
  readonly processStartTime: number | null;
  readonly supervisorPid: number | null;
  readonly supervisorStartTime: number | null;
  readonly exitCode: number | null;
  readonly signal: string | null;
  /** Why the job failed without an exit code (the command could not be started), or was judged uncertain. */
  readonly error: string | null;
  readonly createdBy: Operator | null;
  /** The task whose agent started the job (null for a person or an embedder); the completion gate counts it. */
  readonly taskId: string | null;
  /**
   * The machine the job runs on: the host id (COWORK_HOST_ID, default the hostname) of the host
   * that started it. Only hosts there check its processes; others go by whether a host there still
   * runs (see jobs/reconcile.ts). Null: started without one (before schema 13, or by a bare
   * JobService), taken for the reading host's own machine.
   */
  readonly hostId: string | null;
  readonly createdAt: string;
  readonly startedAt: string | null;
  readonly endedAt: string | null;
  readonly cancelRequestedAt: string | null;
}

export interface JobRepo {
  insert(record: JobRecord): Promise<void>;
  get(id: string): Promise<JobRecord | undefined>;
  /** Oldest first. */
  list(options?: { status?: JobStatus; taskId?: string; limit?: number }): Promise<JobRecord[]>;
  /** Records the processes of a running job; returns false when the job is no longer running. */
  setProcess(id: string, identity: JobProcessIdentity): Promise<boolean>;
  /** Marks a running job's cancel request; returns false when it is not running or already marked. */
  requestCancel(id: string, at: string): Promise<boolean>;
  /** Compare-and-set from `running` to an end; returns false, writing nothing, when it already ended. */
  finish(id: string, end: JobEnd): Promise<boolean>;
}
