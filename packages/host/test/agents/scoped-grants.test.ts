/**
 * Grants are enforced where the work happens: a plugin tool's handler gets the resource API scoped
 * to the calling agent's grants, whatever the tool declared. The probe tool below declares nothing
 * and tries everything, so only the scope stands between a subagent and the other resources.
 */
import { isCoworkError } from '../../src/errors';
import { definePlugin, defineTool } from '../../src/plugins/define-plugin';
import type { ResourceApi } from '../../src/plugins/resource-api';
import type { Operator } from '../../src/store/records';
import { reply } from '../../src/testkit/scripted-model-server';
import { caller, startRuntime, type RuntimeHarness } from './runtime-harness';

type Attempt = 'read' | 'history' | 'list' | 'draft' | 'propose' | 'commit' | 'restore' | 'accept' | 'create' | 'impersonate' | 'select';
const ATTEMPTS: Attempt[] = ['read', 'history', 'list', 'draft', 'propose', 'commit', 'restore', 'accept', 'create', 'impersonate', 'select'];

interface Outcome {
  readonly attempt: Attempt;
  readonly target: 'A' | 'B';
  readonly result: 'ok' | string;
}

/** One attempt through the tool's scoped API; throws what the API throws. */
async function tryAttempt(api: ResourceApi, operator: Operator, attempt: Attempt, resourceId: string, candidateId: string, head: number): Promise<unknown> {
  switch (attempt) {
    case 'read':
      return [await api.get(resourceId), await api.contentAt(resourceId, 0), await api.viewFor(resourceId, { operator, sinceRevision: 0 })];
    case 'history':
      return [await api.history(resourceId), await api.changes(resourceId, { since: 0 }), await api.diff(resourceId, 0, 1), await api.listCandidates(resourceId)];
    case 'list': {
      // Listing never fails; it shows only what may be read.
      const ids = (await api.list()).map((r) => r.id);
      if (!ids.includes(resourceId)) throw Object.assign(new Error('not listed'), { code: 'not_listed' });
      return ids;
    }
    case 'draft': {
      const draft = await api.createDraft(resourceId, operator);
      return api.editDraft(draft.id, { type: 'append', text: ' drafted' }, operator);
    }
    case 'propose': {
      const draft = await api.createDraft(resourceId, operator);
      await api.editDraft(draft.id, { type: 'append', text: ' proposed' }, operator);
      return api.proposeDraft(draft.id, operator);
    }
    case 'commit':
      return api.commit(resourceId, { baseRevision: head, op: { type: 'append', text: ' written' }, operator });
    case 'restore':
      return api.restore(resourceId, { revision: 0, baseRevision: head, operator });
    case 'accept':
      return api.acceptCandidate(candidateId, { operator, baseRevision: head });
    case 'create':
      return api.create({ kind: 'text', content: { text: 'new' }, operator });
    case 'impersonate':
      return api.commit(resourceId, { baseRevision: head, op: { type: 'append', text: ' as ann' }, operator: 'human:ann' });
    case 'select':
      return api.setSelection(resourceId, 'human:ann', { range: [0, 1] });
  }
}

describe('a plugin tool acts only within its agent\'s grants', () => {
  let h: RuntimeHarness;
  let outcomes: Outcome[] = [];
  let targets = { A: '', B: '', candidateA: '', candidateB: '' };
  let grant: { access: 'read' | 'draft' | 'propose'; resourceId?: string; kind?: string } | null = null;

  const probe = definePlugin({
    name: 'probe',
    version: '1.0.0',
    tools: [
      defineTool<{ attempt: Attempt; target: 'A' | 'B' }>({
        name: 'probe',
        description: 'Tries one thing on a resource.',
        inputSchema: { type: 'object', properties: { attempt: { enum: ATTEMPTS }, target: { enum: ['A', 'B'] } }, required: ['attempt', 'target'] },
        // Declares nothing: the scope, not the declaration, must hold it to its grants.
        permissions: [],
        handler: async (input, context) => {
          const resourceId = targets[input.target];
          const candidateId = input.target === 'A' ? targets.candidateA : targets.candidateB;
          try {
            // The head revision from outside the scope, so that a refused read cannot mask a refused write.
            const head = (await h.host.resources.get(resourceId)).revision;
            await tryAttempt(context.host.resources, context.operator, input.attempt, resourceId, candidateId, head);
            outcomes.push({ attempt: input.attempt, target: input.target, result: 'ok' });
            return { content: 'ok' };
          } catch (error) {
            const code = isCoworkError(error) || (error as { code?: string }).code ? String((error as { code: string }).code) : String(error);
            outcomes.push({ attempt: input.attempt, target: input.target, result: code });
            return { content: code, isError: true };
          }
        },
      }),
    ],
  });

  beforeAll(async () => {
    h = await startRuntime((body) => {
      const who = caller(body);
      const results = body.messages.filter((m) => m.role === 'tool').length;
      if (who === 'main') {
        if (grant === null) {
          // Main itself: every attempt on A.
          if (results === 0) return reply.toolCalls(ATTEMPTS.map((attempt, i) => ({ id: `m${i}`, name: 'probe', arguments: { attempt, target: 'A' } })));
          return reply.toolCalls([{ name: 'finish', arguments: { summary: 'probed' } }]);
        }
        if (results === 0) return reply.toolCalls([{ id: 'd', name: 'delegate', arguments: { assignment: 'probe', mode: 'sync', agent: 'prober', tools: ['probe'], resources: [grant] } }]);
        return reply.toolCalls([{ name: 'finish', arguments: { summary: 'probed' } }]);
      }
      if (results > 0) return reply.toolCalls([{ name: 'submit_result', arguments: { result: 'probed' } }]);
      const calls = ATTEMPTS.flatMap((attempt) => (['A', 'B'] as const).map((target) => ({ attempt, target })));
      return reply.toolCalls(calls.map((args, i) => ({ id: `p${i}`, name: 'probe', arguments: args })));
    }, { plugins: [probe] });
  });
  afterAll(() => h.dispose());

  /** Fresh A and B at revision 1, each with an open candidate by someone else; runs one task. */
  async function probeWith(given: typeof grant): Promise<{ outcomes: Outcome[]; denials: Record<string, unknown>[]; taskId: string }> {
    const api = h.host.resources;
    const make = async (text: string): Promise<{ id: string; candidate: string }> => {
      const r = await api.create({ kind: 'text', content: { text }, operator: 'human:owner' });
      await api.commit(r.id, { baseRevision: 0, op: { type: 'append', text: '!' }, operator: 'human:owner' });
      const draft = await api.createDraft(r.id, 'agent:other');
      await api.editDraft(draft.id, { type: 'append', text: ' other' }, 'agent:other');
      return { id: r.id, candidate: (await api.proposeDraft(draft.id, 'agent:other')).id };
    };
    const a = await make('alpha');
    const b = await make('beta');
    targets = { A: a.id, B: b.id, candidateA: a.candidate, candidateB: b.candidate };
    grant = given === null ? null : { ...given, ...(given.kind === undefined ? { resourceId: a.id } : {}) };
    outcomes = [];
    const taskId = await h.runtime.startTask('probe the grants');
    await expect(h.runtime.runTask(taskId)).resolves.toEqual({ status: 'done', summary: 'probed' });
    const events = await h.host.store.read((tx) => tx.events.list(0));
    const denials = events.filter((e) => e.type === 'access.denied' && (e.data as { taskId: string }).taskId === taskId).map((e) => e.data as Record<string, unknown>);
    return { outcomes, denials, taskId };
  }

  const allowed = (o: Outcome[], target: 'A' | 'B'): string[] => o.filter((x) => x.target === target && x.result === 'ok').map((x) => x.attempt).sort();

  it.each([
    ['read', ['history', 'list', 'read']],
    ['draft', ['draft', 'history', 'list', 'read']],
    ['propose', ['draft', 'history', 'list', 'propose', 'read']],
  ] as const)('a subagent granted %s on resource A does exactly that on A and nothing on B', async (access, expected) => {
    const { outcomes: got, denials } = await probeWith({ access });
    expect(got).toHaveLength(ATTEMPTS.length * 2);
    expect(allowed(got, 'A')).toEqual([...expected].sort());
    expect(allowed(got, 'B')).toEqual([]);
    for (const o of got.filter((x) => x.result !== 'ok')) {
      // Impersonation and a person's selection are refused as `forbidden`; a missing grant as `permission_denied`; B is not even listed.
      const want = o.attempt === 'impersonate' || o.attempt === 'select' ? 'forbidden' : o.attempt === 'list' ? 'not_listed' : 'permission_denied';
      expect([o.attempt, o.target, o.result]).toEqual([o.attempt, o.target, want]);
    }
    // Every refusal is in the task's log, with what was tried and on what.
    const refused = got.filter((x) => x.result === 'permission_denied');
    expect(denials).toHaveLength(refused.length);
    expect(denials.every((d) => d.agentId !== 'main' && d.operator === `agent:${String(d.agentId)}`)).toBe(true);
    expect(denials.some((d) => d.resourceId === targets.B && d.action === 'commit' && d.access === 'commit')).toBe(true);

    // Nothing was written to B: still revision 1, only the candidate someone else opened.
    const b = await h.host.resources.get(targets.B);
    expect([b.revision, b.content]).toEqual([1, { text: 'beta!' }]);
    expect((await h.host.resources.listCandidates(targets.B)).map((c) => c.operator)).toEqual(['agent:other']);
    // And A was never committed to by the subagent either (commit is never a subagent's).
    expect((await h.host.resources.get(targets.A)).revision).toBe(1);
  });

  it('a kind-wide grant covers every resource of the kind, and still never a commit or a create', async () => {
    const { outcomes: got } = await probeWith({ access: 'propose', kind: 'text' });
    for (const target of ['A', 'B'] as const) expect(allowed(got, target)).toEqual(['draft', 'history', 'list', 'propose', 'read']);
  });

  it('Main holds every access, but its tools still act only as Main', async () => {
    const { outcomes: got, denials } = await probeWith(null);
    expect(allowed(got, 'A')).toEqual(['accept', 'commit', 'create', 'draft', 'history', 'list', 'propose', 'read', 'restore'].sort());
    expect(got.filter((x) => x.result !== 'ok').map((x) => [x.attempt, x.result])).toEqual([
      ['impersonate', 'forbidden'],
      ['select', 'forbidden'],
    ]);
    expect(denials).toEqual([]);
    const history = await h.host.resources.history(targets.A);
    expect(history.every((r) => r.operator !== 'human:ann')).toBe(true);
  });
});
