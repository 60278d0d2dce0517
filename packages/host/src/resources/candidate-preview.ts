import { callPlugin, type RegisteredKind } from '../plugins/registry';
import type { CandidateRecord, Json } from '../store/records';
import { applyOps } from './kind-ops';

/** What accepting a candidate now would do: the kind's diff from `revision` and the content it makes. */
export interface CandidatePreview {
  readonly candidateId: string;
  readonly revision: number;
  /** The kind's readable account of the change (its `diff`). */
  readonly diff: string;
  readonly content: Json;
}

/**
 * A candidate's ops applied to the content of `revision` (usually the head: what a person reviewing
 * it would accept), described by the kind's own diff. Nothing is written; ops that no longer apply
 * throw the kind's error, which is what accepting would answer too.
 */
export function previewCandidate(kind: RegisteredKind, candidate: CandidateRecord, revision: number, before: Json, maxContentBytes: number): CandidatePreview {
  const { content } = applyOps(kind, before, candidate.ops, maxContentBytes);
  const diff = callPlugin(kind.plugin, 'diff', () => kind.kind.diff(before, content));
  return { candidateId: candidate.id, revision, diff, content };
}
