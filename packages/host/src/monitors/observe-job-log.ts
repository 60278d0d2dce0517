import { isCoworkError } from '../errors';
import type { LogMatchCount } from '../jobs/log-match-counter';
import type { Json } from '../store/records';
import type { Observer } from './observer';

/** What this observer needs of the job service. */
export interface JobLogSource {
  logMatchCounter(id: string, stream: 'stdout' | 'stderr', search: string): Promise<{ count(): LogMatchCount }>;
}

/** A matching line is cut to this many characters in the observation. */
const MAX_LINE_CHARS = 500;

/**
 * Lines of a job's log that match a pattern: `{matches, lastMatch}` (how many retained lines match,
 * and the newest of them, or null). A job that is gone is `{error: 'not_found'}`. Counts are over
 * the retained log, so a log rotation that drops matching lines reads as a change. Each poll reads
 * only what the log gained since the previous one.
 */
export function jobLogObserver(target: { jobId: string; pattern: string; stream: 'stdout' | 'stderr' }, jobs: JobLogSource): Observer {
  let counter: { count(): LogMatchCount } | undefined;
  return {
    async observe(): Promise<Json> {
      try {
        counter ??= await jobs.logMatchCounter(target.jobId, target.stream, target.pattern);
        const { matches, lastMatch } = counter.count();
        return { matches, lastMatch: lastMatch === null ? null : lastMatch.slice(0, MAX_LINE_CHARS) };
      } catch (error) {
        if (isCoworkError(error)) return { error: error.code, message: error.message };
        throw error;
      }
    },
  };
}
