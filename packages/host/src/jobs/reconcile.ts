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
  if (seen.supervisorAlive || seen.processAlive) return undefined;
  if (!seen.identityKnown && seen.ageMs < STARTUP_GRACE_MS) return undefined;
  return {
    status: cancelled ? 'cancelled' : 'uncertain',
    exitCode: null,
    signal: null,
    error: seen.identityKnown
      ? 'the job process is gone and left no exit record'
      : 'the job supervisor never reported that the command started',
    endedAt,
  };
}
