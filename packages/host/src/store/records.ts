import type { Json } from '../util/json';

export type { Json };

/**
 * Who made a change: a person, an agent, or (only ever written by the host) the outside
 * application of an `external` resource, for changes nobody committed through the host.
 */
export type Operator = `human:${string}` | `agent:${string}` | `app:${string}`;

export interface ResourceRecord {
  readonly id: string;
  readonly kind: string;
  readonly revision: number;
  readonly content: Json;
  /** What people call it (given at creation); absent when none was given. */
  readonly title?: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/**
 * How a revision came to be: `create` (revision 0, op is null), `op` (the kind's op), `restore`
 * (op is `{"toRevision": N}`: the content of revision N, committed anew), or `external` (the outside
 * application of an `external` kind changed on its own; see plugins/external.ts). Every wire schema
 * that carries an action is built from this list.
 */
export const REVISION_ACTIONS = ['create', 'op', 'restore', 'external'] as const;
export type RevisionAction = (typeof REVISION_ACTIONS)[number];

/** One committed revision. Revision 0 is the creation; every later one has the op that made it. */
export interface RevisionRecord {
  readonly resourceId: string;
  readonly revision: number;
  readonly action: RevisionAction;
  readonly op: Json;
  readonly operator: Operator;
  readonly createdAt: string;
}

export type CandidateSource = 'conflict' | 'draft';
export const CANDIDATE_STATUSES = ['open', 'accepted', 'rejected', 'discarded'] as const;
export type CandidateStatus = (typeof CANDIDATE_STATUSES)[number];

/**
 * A change that is not (yet) part of the resource: an op rejected by `revision_conflict`, or the ops
 * of a draft proposed for Main's review. It is kept until it is accepted, rejected or discarded.
 */
export interface CandidateRecord {
  readonly id: string;
  readonly resourceId: string;
  readonly baseRevision: number;
  readonly ops: Json[];
  readonly operator: Operator;
  readonly source: CandidateSource;
  readonly draftId: string | null;
  readonly status: CandidateStatus;
  readonly createdAt: string;
  readonly resolvedAt: string | null;
  readonly resolvedBy: Operator | null;
  /** The revision the candidate became when accepted. */
  readonly acceptedRevision: number | null;
}

export type DraftStatus = 'open' | 'proposed' | 'discarded';

/** A private working copy of a resource: only its owner reads or edits it. */
export interface DraftRecord {
  readonly id: string;
  readonly resourceId: string;
  readonly owner: Operator;
  readonly baseRevision: number;
  readonly content: Json;
  readonly ops: Json[];
  readonly status: DraftStatus;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** What a person has selected in a resource (a slide, a range, an object), saved per person. */
export interface SelectionRecord {
  readonly resourceId: string;
  readonly person: Operator;
  readonly selection: Json;
  readonly updatedAt: string;
}

/** One entry of the append-only coordinator event log. `seq` is assigned by the store. */
export interface EventRecord {
  readonly seq: number;
  readonly type: string;
  readonly at: string;
  readonly data: Json;
}
