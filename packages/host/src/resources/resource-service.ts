import { CoworkError } from '../errors';
import type { RegisteredKind } from '../plugins/registry';
import { callPlugin } from '../plugins/registry';
import type {
  CandidateRecord,
  CandidateStatus,
  DraftRecord,
  Json,
  Operator,
  ResourceRecord,
  RevisionRecord,
  SelectionRecord,
} from '../store/records';
import { IdempotencyClaim } from '../store/idempotency';
import type { StoreTx } from '../store/store';
import { newId } from '../util/ids';
import { yieldToEventLoop } from '../util/event-loop';
import { closeCandidate, requireCandidate, requireOpenCandidate } from './candidates';
import type { Change, PerformOp } from './commit';
import { Committer } from './committer';
import { contentAt } from './content-at';
import { DraftService } from './draft-service';
import { previewCandidate, type CandidatePreview } from './candidate-preview';
import { checkId, checkJsonSize, checkOperator, checkRevision, checkTitle } from './input-checks';
import { checkContentDomain, validateContent, validateOp } from './kind-ops';
import type { ResourceDeps } from './resource-deps';
import type { RevisionEvent, RevisionListener } from '../plugins/revision-event';
import type {
  AcceptRequest,
  AgentView,
  ChangesQuery,
  CommitRequest,
  CommitResult,
  CreateRequest,
  ResourceApi,
  RestoreRequest,
} from '../plugins/resource-api';

/** Ops from this size on let other work run between their checks and their write. */
const LARGE_OP_CHARS = 256 * 1024;

/**
 * The shared-resource protocol. Every edge (HTTP, WebSocket, MCP, CLI, agent tools) calls this
 * service; it owns validation, the revision check, candidates and the revision events.
 */
export class ResourceService implements ResourceApi {
  private readonly drafts: DraftService;
  /** A resource's kind never changes, so it is looked up once. */
  private readonly kindById = new Map<string, RegisteredKind>();
  private readonly committer: Committer;

  constructor(private readonly deps: ResourceDeps) {
    this.drafts = new DraftService(deps, (tx, id) => this.requireResource(tx, id), (id) => this.kindOf(id));
    this.committer = new Committer(deps, this);
  }

  async create(request: CreateRequest): Promise<ResourceRecord> {
    const operator = checkOperator(request?.operator);
    const title = checkTitle(request.title);
    const kind = this.deps.registry.kind(typeof request.kind === 'string' ? request.kind : String(request.kind));
    const content =
      request.content === undefined
        ? callPlugin(kind.plugin, 'initialContent', () => kind.kind.initialContent())
        : request.content;
    const { content: checked, serialized } = validateContent(kind, content, this.deps.limits.maxContentBytes);
    await checkContentDomain(kind, checked, 'invalid_content', this);
    const stored = await this.deps.store.keepText(serialized);
    const claim = IdempotencyClaim.of('create', request.idempotencyKey, { kind: kind.kind.name, content: checked, operator, ...(title === undefined ? {} : { title }) });
    const record = await this.deps.store.transaction(async (tx) => {
      const prior = await claim?.prior(tx);
      if (typeof prior === 'string') return this.requireResource(tx, prior);
      const at = this.deps.now();
      const resource: ResourceRecord = {
        id: newId('res'),
        kind: kind.kind.name,
        revision: 0,
        content: checked,
        ...(title === undefined ? {} : { title }),
        createdAt: at,
        updatedAt: at,
      };
      await tx.resources.insert(resource, stored);
      await tx.revisions.insert({ resourceId: resource.id, revision: 0, action: 'create', op: null, operator, createdAt: at }, { snapshot: stored });
      await claim?.record(tx, resource.id, at);
      return resource;
    });
    this.kindById.set(record.id, kind);
    this.publish([{ resourceId: record.id, kind: record.kind, revision: 0, action: 'create', operator, op: null }]);
    return record;
  }

  async get(resourceId: string): Promise<ResourceRecord> {
    const id = checkId(resourceId, 'resourceId');
    return this.deps.store.read((tx) => this.requireResource(tx, id));
  }

  async list(options: { kind?: string; limit?: number } = {}): Promise<ResourceRecord[]> {
    return this.deps.store.read((tx) => tx.resources.list(options));
  }

  /**
   * Commits one op. Applies only if `baseRevision` is the current revision; otherwise throws
   * `revision_conflict` (with `currentRevision` and `candidateId`) and keeps the op as a candidate.
   */
  async commit(resourceId: string, request: CommitRequest): Promise<CommitResult> {
    const id = checkId(resourceId, 'resourceId');
    const baseRevision = checkRevision(request?.baseRevision);
    const operator = checkOperator(request.operator);
    const kind = await this.kindOf(id);
    const { op, text } = validateOp(kind, request.op, this.deps.limits.maxContentBytes);
    // A large op has cost a long stretch of the event loop already (parsing, checking) and will
    // cost another to apply and write: other requests get their turn in between.
    if (text.length >= LARGE_OP_CHARS) await yieldToEventLoop();
    const claim = IdempotencyClaim.of(`commit ${id}`, request.idempotencyKey, { baseRevision, op, operator });
    const commit = (perform?: PerformOp): Promise<CommitResult> =>
      this.committer.commit({ resourceId: id, kind, baseRevision, operator, claim, perform, change: () => ({ action: 'op', ops: [op], texts: [text] }), onConflict: { keep: [op] } });
    if (kind.kind.revisionSemantics === 'external') return this.withExternal(id, kind, commit);
    return commit();
  }

  /**
   * Records what the application of an `external` resource shows now, when it differs from the
   * head: an `external` revision by `app:<plugin>`. The poll calls this; commits do it first.
   */
  async syncExternal(resourceId: string): Promise<void> {
    const id = checkId(resourceId, 'resourceId');
    const kind = await this.kindOf(id);
    if (kind.kind.revisionSemantics !== 'external') return;
    await this.withExternal(id, kind, async () => undefined);
  }

  /** Makes an old revision's content the newest revision (a commit, with the same revision check). */
  async restore(resourceId: string, request: RestoreRequest): Promise<CommitResult> {
    const id = checkId(resourceId, 'resourceId');
    const toRevision = checkRevision(request?.revision, 'revision');
    const baseRevision = checkRevision(request.baseRevision);
    const operator = checkOperator(request.operator);
    const kind = await this.kindOf(id);
    if (kind.kind.revisionSemantics === 'external') {
      throw new CoworkError('invalid_input', `${kind.kind.name} resources live in an outside application, which the host cannot set to an old content; commit ops that undo the change instead`, {
        kind: kind.kind.name,
      });
    }
    return this.committer.commit({
      resourceId: id,
      kind,
      baseRevision,
      operator,
      onConflict: { candidateId: null },
      change: async (head): Promise<Change> => ({
        action: 'restore',
        toRevision,
        content: await this.deps.store.read((tx) => contentAt(tx, head, kind, toRevision, this.deps.limits.maxContentBytes)),
      }),
    });
  }

  async history(resourceId: string, options: { after?: number; limit?: number } = {}): Promise<RevisionRecord[]> {
    const id = checkId(resourceId, 'resourceId');
    return this.deps.store.read(async (tx) => {
      await this.requireResource(tx, id);
      return tx.revisions.list(id, { after: options.after ?? -1, limit: options.limit });
    });
  }

  async contentAt(resourceId: string, revision: number): Promise<Json> {
    const [content] = await this.contentsAt(resourceId, [revision]);
    return content!;
  }

  /** A resource's contents at several revisions, from one read of the resource. */
  private async contentsAt(resourceId: string, revisions: readonly number[]): Promise<Json[]> {
    const id = checkId(resourceId, 'resourceId');
    const at = revisions.map((revision) => checkRevision(revision, 'revision'));
    const kind = await this.kindOf(id);
    return this.deps.store.read(async (tx) => {
      const resource = await this.requireResource(tx, id);
      const contents: Json[] = [];
      for (const revision of at) contents.push(await contentAt(tx, resource, kind, revision, this.deps.limits.maxContentBytes));
      return contents;
    });
  }

  /** Revisions after `since`, optionally leaving out one operator's own: "what did others change?" */
  async changes(resourceId: string, query: ChangesQuery): Promise<RevisionRecord[]> {
    const id = checkId(resourceId, 'resourceId');
    const since = checkRevision(query?.since, 'since');
    const excludeOperator = query.excludeOperator === undefined ? undefined : checkOperator(query.excludeOperator, 'excludeOperator');
    return this.deps.store.read(async (tx) => {
      await this.requireResource(tx, id);
      return tx.revisions.list(id, { after: since, excludeOperator, limit: query.limit });
    });
  }

  async diff(resourceId: string, fromRevision: number, toRevision: number): Promise<string> {
    const [before, after] = (await this.contentsAt(resourceId, [fromRevision, toRevision])) as [Json, Json];
    const kind = await this.kindOf(resourceId);
    return callPlugin(kind.plugin, 'diff', () => kind.kind.diff(before, after));
  }

  async summarize(resourceId: string): Promise<string> {
    const resource = await this.get(resourceId);
    const kind = this.deps.registry.kind(resource.kind);
    return callPlugin(kind.plugin, 'summarize', () => kind.kind.summarize(resource.content));
  }

  /** An agent's view: current content, what others committed since it last looked, and selections. */
  async viewFor(resourceId: string, viewer: { operator: Operator; sinceRevision: number }): Promise<AgentView> {
    const id = checkId(resourceId, 'resourceId');
    const operator = checkOperator(viewer?.operator);
    const since = checkRevision(viewer.sinceRevision, 'sinceRevision');
    const kind = await this.kindOf(id);
    const { resource, changesByOthers, selections } = await this.deps.store.read(async (tx) => ({
      resource: await this.requireResource(tx, id),
      changesByOthers: await tx.revisions.list(id, { after: since, excludeOperator: operator }),
      selections: await tx.selections.list(id),
    }));
    const summary = callPlugin(kind.plugin, 'summarize', () => kind.kind.summarize(resource.content));
    return { resource, summary, changesByOthers, selections };
  }

  async setSelection(resourceId: string, person: Operator, selection: unknown): Promise<SelectionRecord> {
    const id = checkId(resourceId, 'resourceId');
    const who = checkOperator(person, 'person');
    checkJsonSize(selection, 64 * 1024, 'selection');
    return this.deps.store.transaction(async (tx) => {
      await this.requireResource(tx, id);
      const record: SelectionRecord = { resourceId: id, person: who, selection: selection as Json, updatedAt: this.deps.now() };
      await tx.selections.put(record);
      return record;
    });
  }

  async getSelection(resourceId: string, person: Operator): Promise<SelectionRecord | undefined> {
    const id = checkId(resourceId, 'resourceId');
    const who = checkOperator(person, 'person');
    return this.deps.store.read(async (tx) => {
      await this.requireResource(tx, id);
      return tx.selections.get(id, who);
    });
  }

  async listSelections(resourceId: string): Promise<SelectionRecord[]> {
    const id = checkId(resourceId, 'resourceId');
    return this.deps.store.read(async (tx) => {
      await this.requireResource(tx, id);
      return tx.selections.list(id);
    });
  }

  async listCandidates(resourceId: string, status?: CandidateStatus): Promise<CandidateRecord[]> {
    const id = checkId(resourceId, 'resourceId');
    return this.deps.store.read(async (tx) => {
      await this.requireResource(tx, id);
      return tx.candidates.list(id, status);
    });
  }

  async getCandidate(candidateId: string): Promise<CandidateRecord> {
    const id = checkId(candidateId, 'candidateId');
    return this.deps.store.read((tx) => requireCandidate(tx, id));
  }

  /**
   * Commits a candidate's ops (one revision each) as its author, with the same revision check as
   * any commit. Retrying a conflicted op against a newer base is accepting it with that base. On a
   * conflict the candidate stays open.
   */
  async acceptCandidate(candidateId: string, request: AcceptRequest): Promise<CommitResult> {
    const id = checkId(candidateId, 'candidateId');
    const accepter = checkOperator(request?.operator);
    const requestedBase = request.baseRevision === undefined ? undefined : checkRevision(request.baseRevision);
    const candidate = await this.getCandidate(id);
    const kind = await this.kindOf(candidate.resourceId);
    const baseRevision = requestedBase ?? candidate.baseRevision;
    const accept = (perform?: PerformOp): Promise<CommitResult> =>
      this.committer.commit({
        resourceId: candidate.resourceId,
        kind,
        baseRevision,
        operator: candidate.operator,
        perform,
        onConflict: { candidateId: id },
        change: async () => ({ action: 'op', ops: (await this.deps.store.read((tx) => requireOpenCandidate(tx, id))).ops }),
        // Inside the write: a candidate resolved meanwhile is candidate_closed, and nothing is written.
        afterCommit: async (tx, revision) => void (await closeCandidate(this.deps, tx, candidate, 'accepted', accepter, revision)),
      });
    if (kind.kind.revisionSemantics === 'external') return this.withExternal(candidate.resourceId, kind, accept);
    return accept();
  }

  /** What accepting the candidate on `revision` (default: the current one) would make, and the kind's diff of it; writes nothing. */
  async previewCandidate(candidateId: string, revision?: number): Promise<CandidatePreview> {
    const candidate = await this.getCandidate(candidateId);
    const at = revision === undefined ? (await this.get(candidate.resourceId)).revision : checkRevision(revision, 'revision');
    const [before] = (await this.contentsAt(candidate.resourceId, [at])) as [Json];
    return previewCandidate(await this.kindOf(candidate.resourceId), candidate, at, before, this.deps.limits.maxContentBytes);
  }

  async rejectCandidate(candidateId: string, operator: Operator): Promise<CandidateRecord> {
    return this.closeCandidateAs(candidateId, 'rejected', operator);
  }

  async discardCandidate(candidateId: string, operator: Operator): Promise<CandidateRecord> {
    return this.closeCandidateAs(candidateId, 'discarded', operator);
  }

  createDraft(resourceId: string, owner: Operator): Promise<DraftRecord> {
    return this.drafts.create(resourceId, owner);
  }

  readDraft(draftId: string, requester: Operator): Promise<DraftRecord> {
    return this.drafts.read(draftId, requester);
  }

  editDraft(draftId: string, op: unknown, requester: Operator): Promise<DraftRecord> {
    return this.drafts.edit(draftId, op, requester);
  }

  proposeDraft(draftId: string, requester: Operator): Promise<CandidateRecord> {
    return this.drafts.propose(draftId, requester);
  }

  discardDraft(draftId: string, requester: Operator): Promise<DraftRecord> {
    return this.drafts.discard(draftId, requester);
  }

  subscribe(listener: RevisionListener): () => void {
    return this.deps.events.subscribe(listener);
  }

  private async closeCandidateAs(
    candidateId: string,
    status: 'rejected' | 'discarded',
    operator: Operator,
  ): Promise<CandidateRecord> {
    const id = checkId(candidateId, 'candidateId');
    const by = checkOperator(operator);
    return this.deps.store.transaction(async (tx) => closeCandidate(this.deps, tx, await requireOpenCandidate(tx, id), status, by));
  }

  private withExternal<T>(id: string, kind: RegisteredKind, fn: (perform: PerformOp) => Promise<T>): Promise<T> {
    return this.committer.withExternal(id, kind, () => this.get(id), fn);
  }

  private async requireResource(tx: StoreTx, id: string): Promise<ResourceRecord> {
    const resource = await tx.resources.get(id);
    if (!resource) throw new CoworkError('not_found', `no resource ${JSON.stringify(id)}`, { resourceId: id });
    return resource;
  }

  private async kindOf(id: string): Promise<RegisteredKind> {
    const cached = this.kindById.get(id);
    if (cached) return cached;
    const resource = await this.deps.store.read((tx) => this.requireResource(tx, id));
    const kind = this.deps.registry.kind(resource.kind);
    this.kindById.set(id, kind);
    return kind;
  }

  private publish(events: readonly RevisionEvent[]): void {
    for (const event of events) this.deps.events.publish(event);
  }
}
