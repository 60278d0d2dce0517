import { isCoworkError } from '../errors';
import type { LogMatchCount } from '../jobs/log-match-counter';
import type { Json } from '../store/records';
import type { Observer } from './observer';

/** What this observer needs of the job service. */
export interface JobLogSource {
  logMatchCounter(id: string, stream: 'stdout' | 'stderr', search: string): Promise<{ count(): LogMatchCount }>;
}

/** A matching line is cut to this many UTF-16 code units in the observation (one fewer rather than half a character). */
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
        return { matches, lastMatch: lastMatch === null ? null : cutLine(lastMatch) };
      } catch (error) {
        if (isCoworkError(error)) return { error: error.code, message: error.message };
        throw error;
      }
    },
  };
}

/** The line's first MAX_LINE_CHARS code units, without a surrogate pair's first half at the end. */
function cutLine(line: string): string {
  if (line.length <= MAX_LINE_CHARS) return line;
  const last = line.charCodeAt(MAX_LINE_CHARS - 1);
  return line.slice(0, last >= 0xd800 && last <= 0xdbff ? MAX_LINE_CHARS - 1 : MAX_LINE_CHARS);
}
