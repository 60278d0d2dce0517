import { CoworkError } from '../errors';

/** The `revision_conflict` error: who to re-read, where the resource is now, and where the op went. */
export function revisionConflict(
  resourceId: string,
  baseRevision: number,
  currentRevision: number,
  candidateId: string | null,
): CoworkError {
  const kept = candidateId ? ` Your change was kept as candidate ${candidateId}.` : '';
  // A conflict is the protocol's answer, not a fault: its stack says nothing, and capturing one
  // was 4% of a contended commit's time (bench:commits, 8 writers on one document).
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new CoworkError(
      'revision_conflict',
      `resource ${resourceId} is at revision ${currentRevision}, not ${baseRevision}: re-read it, rebase and retry.${kept}`,
      { resourceId, baseRevision, currentRevision, candidateId },
    );
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
}
