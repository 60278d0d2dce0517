import { CoworkError } from '../errors';
import type { CandidateRecord, CandidateStatus, Operator } from '../store/records';
import type { StoreTx } from '../store/store';
import { newId } from '../util/ids';
import { withFields } from '../util/objects';
import type { ResourceDeps } from './resource-deps';

/** Records a change that did not (yet) become a revision. */
export async function keepCandidate(
  deps: ResourceDeps,
  tx: StoreTx,
  candidate: Pick<CandidateRecord, 'resourceId' | 'baseRevision' | 'ops' | 'operator' | 'source' | 'draftId'>,
): Promise<CandidateRecord> {
  const record: CandidateRecord = withFields(candidate, {
    id: newId('cand'),
    status: 'open' as const,
    createdAt: deps.now(),
    resolvedAt: null,
    resolvedBy: null,
    acceptedRevision: null,
  });
  await tx.candidates.insert(record);
  return record;
}

export async function requireCandidate(tx: StoreTx, candidateId: string): Promise<CandidateRecord> {
  const candidate = await tx.candidates.get(candidateId);
  if (!candidate) {
    throw new CoworkError('not_found', `no candidate ${JSON.stringify(candidateId)}`, { candidateId });
  }
  return candidate;
}

export async function requireOpenCandidate(tx: StoreTx, candidateId: string): Promise<CandidateRecord> {
  const candidate = await requireCandidate(tx, candidateId);
  if (candidate.status !== 'open') throw candidateClosed(candidate);
  return candidate;
}

/** Closes an open candidate as accepted, rejected or discarded. */
export async function closeCandidate(
  deps: ResourceDeps,
  tx: StoreTx,
  candidate: CandidateRecord,
  status: Exclude<CandidateStatus, 'open'>,
  by: Operator,
  acceptedRevision: number | null = null,
): Promise<CandidateRecord> {
  const resolution = { status, resolvedAt: deps.now(), resolvedBy: by, acceptedRevision };
  if (!(await tx.candidates.resolve(candidate.id, resolution))) throw candidateClosed(candidate);
  return { ...candidate, ...resolution };
}

function candidateClosed(candidate: CandidateRecord): CoworkError {
  return new CoworkError('candidate_closed', `candidate ${candidate.id} is already ${candidate.status}`, {
    candidateId: candidate.id,
    status: candidate.status,
  });
}

