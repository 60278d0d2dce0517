import { CoworkError } from '../errors';
import type { RegisteredKind } from '../plugins/registry';
import type { CandidateRecord, DraftRecord, Operator, ResourceRecord } from '../store/records';
import type { StoreTx } from '../store/store';
import { newId } from '../util/ids';
import { keepCandidate } from './candidates';
import { checkId, checkOperator } from './input-checks';
import { applyOps, validateOp } from './kind-ops';
import type { ResourceDeps } from './resource-deps';

/**
 * Private drafts: a working copy of a resource that only its owner can read or edit. The owner
 * proposes it as a candidate (its ops, against the revision the draft was taken from); Main accepts
 * or rejects the candidate. Nothing in a draft touches the resource until then.
 */
export class DraftService {
  constructor(
    private readonly deps: ResourceDeps,
    private readonly requireResource: (tx: StoreTx, id: string) => Promise<ResourceRecord>,
    private readonly kindOf: (resourceId: string) => Promise<RegisteredKind>,
  ) {}

  async create(resourceId: string, owner: Operator): Promise<DraftRecord> {
    const id = checkId(resourceId, 'resourceId');
    const who = checkOperator(owner, 'owner');
    return this.deps.store.transaction(async (tx) => {
      const resource = await this.requireResource(tx, id);
      const at = this.deps.now();
      const draft: DraftRecord = {
        id: newId('draft'),
        resourceId: id,
        owner: who,
        baseRevision: resource.revision,
        content: resource.content,
        ops: [],
        status: 'open',
        createdAt: at,
        updatedAt: at,
      };
      await tx.drafts.insert(draft);
      return draft;
    });
  }

  async read(draftId: string, requester: Operator): Promise<DraftRecord> {
    const id = checkId(draftId, 'draftId');
    const who = checkOperator(requester, 'requester');
    return this.deps.store.read((tx) => this.requireOwnDraft(tx, id, who));
  }

  /** Applies an op to the draft's copy; the op is checked exactly as a commit would check it. */
  async edit(draftId: string, op: unknown, requester: Operator): Promise<DraftRecord> {
    const id = checkId(draftId, 'draftId');
    const who = checkOperator(requester, 'requester');
    const draft = await this.read(id, who);
    const kind = await this.kindOf(draft.resourceId);
    const checked = validateOp(kind, op, this.deps.limits.maxContentBytes).op;
    return this.deps.store.transaction(async (tx) => {
      const current = requireOpen(await this.requireOwnDraft(tx, id, who));
      const content = applyOps(kind, current.content, [checked], this.deps.limits.maxContentBytes).content;
      const next: DraftRecord = { ...current, content, ops: [...current.ops, checked], updatedAt: this.deps.now() };
      await tx.drafts.update(id, next);
      return next;
    });
  }

  /** Turns the draft's ops into a candidate for Main's review. */
  async propose(draftId: string, requester: Operator): Promise<CandidateRecord> {
    const id = checkId(draftId, 'draftId');
    const who = checkOperator(requester, 'requester');
    return this.deps.store.transaction(async (tx) => {
      const draft = requireOpen(await this.requireOwnDraft(tx, id, who));
      if (draft.ops.length === 0) {
        throw new CoworkError('invalid_input', `draft ${id} has no changes to propose`, { draftId: id });
      }
      const candidate = await keepCandidate(this.deps, tx, {
        resourceId: draft.resourceId,
        baseRevision: draft.baseRevision,
        ops: draft.ops,
        operator: draft.owner,
        source: 'draft',
        draftId: draft.id,
      });
      await tx.drafts.update(id, { ...draft, status: 'proposed', updatedAt: this.deps.now() });
      return candidate;
    });
  }

  async discard(draftId: string, requester: Operator): Promise<DraftRecord> {
    const id = checkId(draftId, 'draftId');
    const who = checkOperator(requester, 'requester');
    return this.deps.store.transaction(async (tx) => {
      const draft = requireOpen(await this.requireOwnDraft(tx, id, who));
      const next: DraftRecord = { ...draft, status: 'discarded', updatedAt: this.deps.now() };
      await tx.drafts.update(id, next);
      return next;
    });
  }

  /** Someone else's draft is reported as missing: its existence is private too. */
  private async requireOwnDraft(tx: StoreTx, id: string, requester: Operator): Promise<DraftRecord> {
    const draft = await tx.drafts.get(id);
    if (!draft || draft.owner !== requester) {
      throw new CoworkError('not_found', `no draft ${JSON.stringify(id)} owned by ${requester}`, { draftId: id });
    }
    return draft;
  }
}

function requireOpen(draft: DraftRecord): DraftRecord {
  if (draft.status !== 'open') {
    throw new CoworkError('invalid_transition', `draft ${draft.id} is ${draft.status}; create a new draft to keep editing`, {
      draftId: draft.id,
      status: draft.status,
    });
  }
  return draft;
}
