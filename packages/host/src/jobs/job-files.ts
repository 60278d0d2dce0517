import { join } from 'node:path';
import type { SandboxSpec } from './sandbox';

/**
 * The files of one job, in `<workspace>/jobs/<id>/`. The host writes `spec.json` (and `cancel.json`
 * on cancel); the supervisor writes `identity.json` once the command runs, the logs while it runs,
 * and `exit.json` when it ended. Each JSON file is written atomically (temp file, fsync, rename,
 * fsync of the directory), so a reader sees all of it or none of it, even after power loss.
 * Only this module and the supervisor know the layout.
 */

export const JOBS_DIR = 'jobs';

/** What the supervisor needs to run the command; written by the host before it starts the supervisor. */
export interface JobSpec {
  readonly id: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** Set on top of the supervisor's (that is, the host's) environment. */
  readonly env: Readonly<Record<string, string>>;
  readonly log: LogLimits;
  /** Time between SIGTERM and SIGKILL when the job is cancelled (cancel.json may override it). */
  readonly cancelGraceMs: number;
  /**
   * Run the command under bubblewrap with this sandbox (see sandbox.ts): an agent's job. Its
   * environment is then SAFE_ENV plus `env`, not the supervisor's. Absent or null: unsandboxed.
   */
  readonly sandbox?: SandboxSpec | null;
}

/** Each stream's log is rotated when it reaches `maxBytes`; `keep` rotated files are kept beside it. */
export interface LogLimits {
  readonly maxBytes: number;
  readonly keep: number;
}

/** Written by the supervisor as soon as the command was spawned. */
export interface IdentityFile {
  readonly pid: number;
  readonly processStartTime: number | null;
  readonly supervisorPid: number;
  readonly supervisorStartTime: number | null;
  readonly startedAt: string;
}

/** Written by the supervisor when the command ended (or could not be started: `error`). */
export interface ExitFile {
  readonly code: number | null;
  readonly signal: string | null;
  readonly error: string | null;
  readonly endedAt: string;
}

export interface CancelFile {
  readonly graceMs: number;
  readonly requestedAt: string;
}

export type LogStream = 'stdout' | 'stderr';

export interface JobPaths {
  readonly dir: string;
  readonly spec: string;
  readonly identity: string;
  readonly exit: string;
  readonly cancel: string;
  /** The supervisor's own stderr: empty unless it crashed. */
  readonly supervisorLog: string;
  log(stream: LogStream): string;
}

export function jobPaths(workspaceDir: string, jobId: string): JobPaths {
  return pathsIn(join(workspaceDir, JOBS_DIR, jobId));
}

export function pathsIn(dir: string): JobPaths {
  return {
    dir,
    spec: join(dir, 'spec.json'),
    identity: join(dir, 'identity.json'),
    exit: join(dir, 'exit.json'),
    cancel: join(dir, 'cancel.json'),
    supervisorLog: join(dir, 'supervisor.log'),
    log: (stream) => join(dir, `${stream}.log`),
  };
}
