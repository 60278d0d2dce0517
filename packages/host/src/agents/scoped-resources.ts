import { CoworkError } from '../errors';
import type { ResourceApi } from '../plugins/resource-api';
import type { ResourceAccess } from '../plugins/types';
import type { Operator, ResourceRecord } from '../store/records';
import type { Grants } from './grants';

/** One refused attempt, as the task's log records it. */
export interface AccessDenial {
  readonly operator: Operator;
  readonly access: ResourceAccess;
  /** What was attempted: the ResourceApi method. */
  readonly action: string;
  readonly resourceId?: string;
  readonly kind?: string;
}

/** What a scope checks: an agent's `Grants`, or a viewer's read-only access. */
export type AccessCheck = Pick<Grants, 'allows' | 'allowsKind'>;

/** Everything may be read, nothing changed: a viewer's tools. */
export const READ_ONLY: AccessCheck = {
  allows: (access) => access === 'read',
  allowsKind: (access) => access === 'read',
};

export interface ResourceScope {
  /** Who the tool acts for (an agent, or a person over MCP): every request must be made as it. */
  readonly operator: Operator;
  /** What it was granted; Main (and the owner, and an editor) hold `all`. */
  readonly grants: AccessCheck | 'all';
  /** Records a refusal before `permission_denied` is thrown (the task's log). */
  readonly onDenied?: (denial: AccessDenial) => Promise<void>;
}

/**
 * The resource API a tool handler gets: the host's, narrowed to what the calling agent was
 * granted. The check happens here, where the work happens, so a plugin tool cannot reach past its
 * caller's grants however it is written. A request made as another operator is refused
 * (`forbidden`): agents' operators are set by the runtime, not by the tool.
 */
export function scopedResources(api: ResourceApi, scope: ResourceScope): ResourceApi {
  const { grants } = scope;
  const actAs = (operator: Operator, action: string): void => {
    if (operator !== scope.operator) {
      throw new CoworkError('forbidden', `a tool acting for ${scope.operator} may not ${action} as ${operator}`, { operator: scope.operator, named: operator, action });
    }
  };
  const deny = async (access: ResourceAccess, action: string, target: { resourceId?: string; kind?: string }): Promise<never> => {
    await scope.onDenied?.({ operator: scope.operator, access, action, ...target });
    const what = target.resourceId !== undefined ? `resource ${target.resourceId}` : `resources of kind ${target.kind}`;
    throw new CoworkError('permission_denied', `${scope.operator} was not granted ${access} on ${what} (${action})`, { operator: scope.operator, access, action, ...target });
  };
  const require = async (access: ResourceAccess, action: string, resourceId: string): Promise<ResourceRecord> => {
    const resource = await api.get(resourceId);
    if (grants === 'all' || grants.allows(access, resource)) return resource;
    return deny(access, action, { resourceId });
  };
  const readable = (resource: { id: string; kind: string }): boolean => grants === 'all' || grants.allows('read', resource);

  return {
    async create(request) {
      actAs(request.operator, 'create');
      if (grants !== 'all' && !grants.allowsKind('commit', request.kind)) await deny('commit', 'create', { kind: request.kind });
      return api.create(request);
    },
    get: async (resourceId) => require('read', 'get', resourceId),
    list: async (options) => (await api.list(options)).filter(readable),
    async commit(resourceId, request) {
      actAs(request.operator, 'commit');
      await require('commit', 'commit', resourceId);
      return api.commit(resourceId, request);
    },
    async restore(resourceId, request) {
      actAs(request.operator, 'restore');
      await require('commit', 'restore', resourceId);
      return api.restore(resourceId, request);
    },
    history: async (resourceId, options) => (await require('read', 'history', resourceId), api.history(resourceId, options)),
    contentAt: async (resourceId, revision) => (await require('read', 'contentAt', resourceId), api.contentAt(resourceId, revision)),
    changes: async (resourceId, query) => (await require('read', 'changes', resourceId), api.changes(resourceId, query)),
    diff: async (resourceId, from, to) => (await require('read', 'diff', resourceId), api.diff(resourceId, from, to)),
    summarize: async (resourceId) => (await require('read', 'summarize', resourceId), api.summarize(resourceId)),
    async viewFor(resourceId, viewer) {
      actAs(viewer.operator, 'view');
      await require('read', 'viewFor', resourceId);
      return api.viewFor(resourceId, viewer);
    },
    async setSelection(resourceId, person, selection) {
      // A selection is a person's own; an agent never sets one in a person's name.
      actAs(person, 'set a selection');
      await require('read', 'setSelection', resourceId);
      return api.setSelection(resourceId, person, selection);
    },
    getSelection: async (resourceId, person) => (await require('read', 'getSelection', resourceId), api.getSelection(resourceId, person)),
    listSelections: async (resourceId) => (await require('read', 'listSelections', resourceId), api.listSelections(resourceId)),
    listCandidates: async (resourceId, status) => (await require('read', 'listCandidates', resourceId), api.listCandidates(resourceId, status)),
    async getCandidate(candidateId) {
      const candidate = await api.getCandidate(candidateId);
      await require('read', 'getCandidate', candidate.resourceId);
      return candidate;
    },
    async acceptCandidate(candidateId, request) {
      actAs(request.operator, 'accept a candidate');
      await require('commit', 'acceptCandidate', (await api.getCandidate(candidateId)).resourceId);
      return api.acceptCandidate(candidateId, request);
    },
    async rejectCandidate(candidateId, operator) {
      actAs(operator, 'reject a candidate');
      await require('commit', 'rejectCandidate', (await api.getCandidate(candidateId)).resourceId);
      return api.rejectCandidate(candidateId, operator);
    },
    async discardCandidate(candidateId, operator) {
      actAs(operator, 'discard a candidate');
      const candidate = await api.getCandidate(candidateId);
      // Its author may withdraw its own proposal; anyone else needs the right to decide on it.
      if (candidate.operator !== operator) await require('commit', 'discardCandidate', candidate.resourceId);
      return api.discardCandidate(candidateId, operator);
    },
    async createDraft(resourceId, owner) {
      actAs(owner, 'create a draft');
      await require('draft', 'createDraft', resourceId);
      return api.createDraft(resourceId, owner);
    },
    async readDraft(draftId, requester) {
      actAs(requester, 'read a draft');
      return api.readDraft(draftId, requester);
    },
    async editDraft(draftId, op, requester) {
      actAs(requester, 'edit a draft');
      await require('draft', 'editDraft', (await api.readDraft(draftId, requester)).resourceId);
      return api.editDraft(draftId, op, requester);
    },
    async proposeDraft(draftId, requester) {
      actAs(requester, 'propose a draft');
      await require('propose', 'proposeDraft', (await api.readDraft(draftId, requester)).resourceId);
      return api.proposeDraft(draftId, requester);
    },
    async discardDraft(draftId, requester) {
      actAs(requester, 'discard a draft');
      return api.discardDraft(draftId, requester);
    },
    subscribe: (listener) => api.subscribe((event) => {
      if (readable({ id: event.resourceId, kind: event.kind })) listener(event);
    }),
  };
}
