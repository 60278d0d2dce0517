import { epochNow, type MeasureWindow } from '../clock';
import type { CommitTarget } from './commit-target';

/** What one writer did inside the measured window. */
export interface WriterResult {
  /** Successful commits that completed inside the window. */
  readonly commits: number;
  /** Attempts refused with a revision conflict inside the window, whether or not a retry then won. */
  readonly conflicts: number;
  /** One per counted commit: from its first attempt to its success, retries included. */
  readonly latenciesMs: number[];
  /** The newest revision this writer saw: the document's length, since every commit appends one character. */
  readonly lastRevision: number;
}

/**
 * One writer as an agent would behave: it remembers the last revision it saw, commits on it, and
 * on a conflict re-bases onto the revision the conflict reported and tries again at once. It stops
 * when the window ends, even mid-retry; what finishes during warm-up is not counted.
 */
export async function runWriter(
  target: CommitTarget,
  documentId: string,
  writer: string,
  window: MeasureWindow,
): Promise<WriterResult> {
  const latenciesMs: number[] = [];
  let conflicts = 0;
  // Every document starts at revision 0; a wrong guess would only cost one conflict.
  let known = 0;
  let started = epochNow();
  for (;;) {
    // `await` even a synchronous result, so in-process writers take turns as async callers do.
    const attempt = await target.tryCommit(documentId, known, writer);
    const finished = epochNow();
    const counted = finished >= window.start && finished < window.end;
    if (attempt.ok) {
      known = attempt.revision;
      if (counted) latenciesMs.push(finished - started);
      started = finished;
    } else {
      // The commit's clock keeps running: its latency includes every retry.
      known = attempt.currentRevision;
      if (counted) conflicts += 1;
    }
    if (finished >= window.end) break;
  }
  return { commits: latenciesMs.length, conflicts, latenciesMs, lastRevision: known };
}
