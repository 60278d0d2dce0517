import type { JobEnd, JobRecord } from '../store/job-records';
import type { ExitFile } from './job-files';

/**
 * What the host saw of a running job's processes, in this order: liveness first, then the exit
 * record. The supervisor writes exit.json before it exits, so a supervisor seen dead whose
 * exit.json is then missing really left none.
 */
export interface JobObservation {
  /** Whether the processes are known at all (identity in the record or in identity.json). */
  readonly identityKnown: boolean;
  /** The recorded supervisor is alive and still the same process (pid and start time). */
  readonly supervisorAlive: boolean;
  /** The recorded command process is alive and still the same process. */
  readonly processAlive: boolean;
  readonly exit: ExitFile | undefined;
  /** Milliseconds since the job record was created. */
  readonly ageMs: number;
  /**
   * Set for a job that runs on another machine (`hostId`, from its record): its pids mean nothing
   * here, so `supervisorAlive` and `processAlive` are false and `hostRunning` says whether a host
   * on that machine still runs (holds a live presence lease, store/leases/presence.ts) to check
   * them. Absent: the job runs on this machine and the pid checks stand.
   */
  readonly elsewhere?: { readonly hostId: string; readonly hostRunning: boolean };
}

/** A job whose supervisor has not reported yet is still starting for this long, then uncertain. */
export const STARTUP_GRACE_MS = 30_000;

/**
 * Judges a running job from an observation: `undefined` while it is still running, else how it
 * ended. Pure, so the rules are a table a test can read:
 *
 * - an exit record decides: `cancelled` if a cancel was requested, else `succeeded` for code 0
 *   and `failed` for anything else (a signal, a non-zero code, a command that did not start);
 * - no exit record, but the supervisor or the command is still the same live process: running;
 * - a job on another machine: running while a host there runs (that host judges it by its pids),
 *   so a host elsewhere never calls it gone while its own machine can still tell;
 * - no identity yet, within the startup grace: running (the supervisor is starting);
 * - otherwise the processes are gone and nothing says how it ended: `uncertain` (or `cancelled`
 *   when that was asked for), never `succeeded`.
 */
export function judge(record: JobRecord, seen: JobObservation, endedAt: string): JobEnd | undefined {
  const cancelled = record.cancelRequestedAt !== null;
  if (seen.exit) {
    const { code, signal, error } = seen.exit;
    const clean = code === 0 && signal === null && error === null;
    return {
      status: cancelled ? 'cancelled' : clean ? 'succeeded' : 'failed',
      exitCode: code,
      signal,
      error,
      endedAt: seen.exit.endedAt,
    };
  }
  if (seen.elsewhere?.hostRunning || seen.supervisorAlive || seen.processAlive) return undefined;
  if (!seen.identityKnown && seen.ageMs < STARTUP_GRACE_MS) return undefined;
  return {
    status: cancelled ? 'cancelled' : 'uncertain',
    exitCode: null,
    signal: null,
    error: seen.elsewhere
      ? `the job ran on ${seen.elsewhere.hostId}, where no host runs any more to check its process, and it left no exit record`
      : seen.identityKnown
        ? 'the job process is gone and left no exit record'
        : 'the job supervisor never reported that the command started',
    endedAt,
  };
}
