import type { CandidateRecord, CandidateStatus, DraftRecord, Json, Operator, ResourceRecord, RevisionRecord, SelectionRecord } from '../store/records';
import type { RevisionListener } from './revision-event';

export interface CreateRequest {
  readonly kind: string;
  /** Omit to start from the kind's initial content. */
  readonly content?: unknown;
  /** What people call it (1 to 200 characters); without one the page shows its id. */
  readonly title?: string;
  readonly operator: Operator;
  readonly idempotencyKey?: string;
}

export interface CommitRequest {
  readonly baseRevision: number;
  readonly op: unknown;
  readonly operator: Operator;
  /** A repeated commit with the same key returns the first one's result instead of committing twice. */
  readonly idempotencyKey?: string;
}

export interface CommitResult {
  readonly resourceId: string;
  /** The newest revision the commit made. */
  readonly revision: number;
}

export interface RestoreRequest {
  /** The old revision whose content becomes the new revision. */
  readonly revision: number;
  readonly baseRevision: number;
  readonly operator: Operator;
}

export interface AcceptRequest {
  /** Who accepts (Main, or the author retrying). */
  readonly operator: Operator;
  /** The revision the candidate is now known to apply to; defaults to the candidate's own base. */
  readonly baseRevision?: number;
}

export interface ChangesQuery {
  /** Changes strictly after this revision. */
  readonly since: number;
  /** Leave out this operator's own changes ("what did others do?"). */
  readonly excludeOperator?: Operator;
  readonly limit?: number;
}

/** What an agent sees of a resource: where it is now and what others did since it last looked. */
export interface AgentView {
  readonly resource: ResourceRecord;
  readonly summary: string;
  readonly changesByOthers: RevisionRecord[];
  readonly selections: SelectionRecord[];
}

/** The resource protocol as tools and edges use it. */
export interface ResourceApi {
  create(request: CreateRequest): Promise<ResourceRecord>;
  get(resourceId: string): Promise<ResourceRecord>;
  list(options?: { kind?: string; limit?: number }): Promise<ResourceRecord[]>;
  commit(resourceId: string, request: CommitRequest): Promise<CommitResult>;
  restore(resourceId: string, request: RestoreRequest): Promise<CommitResult>;
  history(resourceId: string, options?: { after?: number; limit?: number }): Promise<RevisionRecord[]>;
  contentAt(resourceId: string, revision: number): Promise<Json>;
  changes(resourceId: string, query: ChangesQuery): Promise<RevisionRecord[]>;
  diff(resourceId: string, fromRevision: number, toRevision: number): Promise<string>;
  summarize(resourceId: string): Promise<string>;
  viewFor(resourceId: string, viewer: { operator: Operator; sinceRevision: number }): Promise<AgentView>;
  setSelection(resourceId: string, person: Operator, selection: unknown): Promise<SelectionRecord>;
  getSelection(resourceId: string, person: Operator): Promise<SelectionRecord | undefined>;
  /** Each person's saved selection on the resource, by person. */
  listSelections(resourceId: string): Promise<SelectionRecord[]>;
  listCandidates(resourceId: string, status?: CandidateStatus): Promise<CandidateRecord[]>;
  getCandidate(candidateId: string): Promise<CandidateRecord>;
  acceptCandidate(candidateId: string, request: AcceptRequest): Promise<CommitResult>;
  rejectCandidate(candidateId: string, operator: Operator): Promise<CandidateRecord>;
  discardCandidate(candidateId: string, operator: Operator): Promise<CandidateRecord>;
  createDraft(resourceId: string, owner: Operator): Promise<DraftRecord>;
  readDraft(draftId: string, requester: Operator): Promise<DraftRecord>;
  editDraft(draftId: string, op: unknown, requester: Operator): Promise<DraftRecord>;
  proposeDraft(draftId: string, requester: Operator): Promise<CandidateRecord>;
  discardDraft(draftId: string, requester: Operator): Promise<DraftRecord>;
  subscribe(listener: RevisionListener): () => void;
}

/**
 * Read access to the workspace's resources, for a kind whose content refers to other resources (an
 * assembly naming `cad.part` revisions): its checks and exports resolve the references with it.
 */
export type ResourceReader = Pick<ResourceApi, 'get' | 'contentAt'>;
