import { isCoworkError } from '../errors';
import type { LogQuery } from '../jobs/job-logs';
import type { JobLogs } from '../jobs/job-service';
import type { Json } from '../store/records';
import type { Observer } from './observer';

/** What this observer needs of the job service. */
export interface JobLogSource {
  logs(id: string, query: LogQuery & { stream?: 'stdout' | 'stderr' }): Promise<JobLogs>;
}

/** A matching line is cut to this many characters in the observation. */
const MAX_LINE_CHARS = 500;

/**
 * Lines of a job's log that match a pattern: `{matches, lastMatch}` (how many retained lines match,
 * and the newest of them, or null). A job that is gone is `{error: 'not_found'}`. Counts are over
 * the retained log, so a log rotation that drops matching lines reads as a change.
 */
export function jobLogObserver(target: { jobId: string; pattern: string; stream: 'stdout' | 'stderr' }, jobs: JobLogSource): Observer {
  return {
    async observe(): Promise<Json> {
      try {
        const logs = await jobs.logs(target.jobId, { stream: target.stream, search: target.pattern, tail: 1 });
        const last = logs.lines[logs.lines.length - 1];
        return { matches: logs.matches ?? 0, lastMatch: last ? last.text.slice(0, MAX_LINE_CHARS) : null };
      } catch (error) {
        if (isCoworkError(error)) return { error: error.code, message: error.message };
        throw error;
      }
    },
  };
}
