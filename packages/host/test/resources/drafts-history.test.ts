/**
 * Invariants: a draft is private to its owner and changes nothing until Main accepts the candidate
 * it proposes (an ordinary commit with the revision check); every revision is kept, old contents are
 * rebuilt exactly, and a restore is a new commit; an agent's view shows what others changed since it
 * last looked, with each person's saved selection.
 */
import type { Host } from '../../src/host';
import { caught, openTempHost } from '../support/temp-host';

describe('drafts, history, restore and the agent view', () => {
  let host: Host & { dispose: () => Promise<void> };
  beforeEach(async () => {
    host = await openTempHost({ limits: { snapshotEvery: 4 } });
  });
  afterEach(() => host.dispose());

  it('keeps a draft private, then turns it into a candidate that Main accepts as one commit per op', async () => {
    const r = await host.resources.create({ kind: 'text', content: { text: 'base' }, operator: 'human:ann' });
    const draft = await host.resources.createDraft(r.id, 'agent:sub1');
    await host.resources.editDraft(draft.id, { type: 'append', text: ' one' }, 'agent:sub1');
    const edited = await host.resources.editDraft(draft.id, { type: 'append', text: ' two' }, 'agent:sub1');
    expect(edited.content).toEqual({ text: 'base one two' });

    // Nobody else sees it, and the resource is untouched.
    expect((await caught(() => host.resources.readDraft(draft.id, 'agent:sub2'))).code).toBe('not_found');
    expect((await caught(() => host.resources.editDraft(draft.id, { type: 'append', text: '!' }, 'human:ann'))).code).toBe('not_found');
    expect((await host.resources.get(r.id)).revision).toBe(0);

    const candidate = await host.resources.proposeDraft(draft.id, 'agent:sub1');
    expect(candidate).toMatchObject({ source: 'draft', draftId: draft.id, baseRevision: 0, operator: 'agent:sub1', status: 'open' });
    expect((await host.resources.readDraft(draft.id, 'agent:sub1')).status).toBe('proposed');
    expect((await caught(() => host.resources.editDraft(draft.id, { type: 'append', text: '!' }, 'agent:sub1'))).code).toBe(
      'invalid_transition',
    );

    await expect(host.resources.acceptCandidate(candidate.id, { operator: 'agent:main' })).resolves.toMatchObject({ revision: 2 });
    const history = await host.resources.history(r.id);
    expect(history.map((h) => [h.revision, h.operator])).toEqual([
      [0, 'human:ann'],
      [1, 'agent:sub1'],
      [2, 'agent:sub1'],
    ]);
    expect((await host.resources.getCandidate(candidate.id)).resolvedBy).toBe('agent:main');
  });

  it('refuses to accept a draft candidate after the resource moved, until Main rebases it', async () => {
    const r = await host.resources.create({ kind: 'text', content: { text: 'ab' }, operator: 'human:ann' });
    const draft = await host.resources.createDraft(r.id, 'agent:sub1');
    await host.resources.editDraft(draft.id, { type: 'append', text: 'c' }, 'agent:sub1');
    const candidate = await host.resources.proposeDraft(draft.id, 'agent:sub1');
    await host.resources.commit(r.id, { baseRevision: 0, op: { type: 'insert', at: 0, text: '>' }, operator: 'human:ann' });

    const conflict = await caught(() => host.resources.acceptCandidate(candidate.id, { operator: 'agent:main' }));
    expect(conflict.code).toBe('revision_conflict');
    expect(conflict.details).toMatchObject({ currentRevision: 1, candidateId: candidate.id });
    await host.resources.acceptCandidate(candidate.id, { operator: 'agent:main', baseRevision: 1 });
    expect((await host.resources.get(r.id)).content).toEqual({ text: '>abc' });
  });

  it('rejects a draft candidate without changing the resource', async () => {
    const r = await host.resources.create({ kind: 'text', operator: 'human:ann' });
    const draft = await host.resources.createDraft(r.id, 'agent:sub1');
    await host.resources.editDraft(draft.id, { type: 'set', text: 'nope' }, 'agent:sub1');
    const candidate = await host.resources.proposeDraft(draft.id, 'agent:sub1');
    expect((await host.resources.rejectCandidate(candidate.id, 'agent:main')).status).toBe('rejected');
    expect((await host.resources.get(r.id)).revision).toBe(0);
    expect((await caught(() => host.resources.proposeDraft(draft.id, 'agent:sub1'))).code).toBe('invalid_transition');
  });

  it('rebuilds every old revision exactly, across snapshots, and restores as a new commit', async () => {
    const r = await host.resources.create({ kind: 'text', operator: 'human:ann' });
    const expected = [''];
    for (let i = 1; i <= 10; i++) {
      await host.resources.commit(r.id, { baseRevision: i - 1, op: { type: 'append', text: `${i},` }, operator: 'human:ann' });
      expected.push(expected[i - 1] + `${i},`);
    }
    for (let rev = 0; rev <= 10; rev++) {
      expect(await host.resources.contentAt(r.id, rev)).toEqual({ text: expected[rev] });
    }
    expect((await caught(() => host.resources.contentAt(r.id, 11))).code).toBe('not_found');

    await expect(host.resources.restore(r.id, { revision: 3, baseRevision: 10, operator: 'human:ann' })).resolves.toMatchObject({
      revision: 11,
    });
    expect((await host.resources.get(r.id)).content).toEqual({ text: expected[3] });
    const last = (await host.resources.history(r.id, { after: 10 }))[0];
    expect(last).toMatchObject({ revision: 11, action: 'restore', op: { toRevision: 3 } });
    // Revisions after the restore replay from its snapshot.
    await host.resources.commit(r.id, { baseRevision: 11, op: { type: 'append', text: 'z' }, operator: 'human:ann' });
    expect(await host.resources.contentAt(r.id, 11)).toEqual({ text: expected[3] });
    expect(await host.resources.contentAt(r.id, 12)).toEqual({ text: `${expected[3]}z` });
    // A restore from a stale base conflicts like any commit.
    expect((await caught(() => host.resources.restore(r.id, { revision: 0, baseRevision: 5, operator: 'human:ann' }))).code).toBe(
      'revision_conflict',
    );
  });

  it('gives an agent the changes others made since it last looked, and the saved selections', async () => {
    const r = await host.resources.create({ kind: 'text', operator: 'human:ann' });
    await host.resources.commit(r.id, { baseRevision: 0, op: { type: 'append', text: 'agent ' }, operator: 'agent:a1' });
    await host.resources.commit(r.id, { baseRevision: 1, op: { type: 'append', text: 'person ' }, operator: 'human:ann' });
    await host.resources.commit(r.id, { baseRevision: 2, op: { type: 'append', text: 'agent2' }, operator: 'agent:a1' });
    await host.resources.setSelection(r.id, 'human:ann', { from: 6, to: 12 });

    const changes = await host.resources.changes(r.id, { since: 1, excludeOperator: 'agent:a1' });
    expect(changes.map((c) => [c.revision, c.operator])).toEqual([[2, 'human:ann']]);

    const view = await host.resources.viewFor(r.id, { operator: 'agent:a1', sinceRevision: 0 });
    expect(view.resource.revision).toBe(3);
    expect(view.changesByOthers.map((c) => c.revision)).toEqual([2]);
    expect(view.selections).toEqual([expect.objectContaining({ person: 'human:ann', selection: { from: 6, to: 12 } })]);
    expect(view.summary).toContain('agent person agent2');
    expect(await host.resources.getSelection(r.id, 'human:ann')).toMatchObject({ selection: { from: 6, to: 12 } });
    expect(await host.resources.diff(r.id, 1, 3)).toBe('- agent \n+ agent person agent2');
  });

  it('publishes each revision once, after it is durable', async () => {
    const seen: string[] = [];
    host.resources.subscribe((e) => seen.push(`${e.action}:${e.revision}:${e.operator}`));
    const r = await host.resources.create({ kind: 'text', operator: 'human:ann' });
    await host.resources.commit(r.id, { baseRevision: 0, op: { type: 'append', text: 'a' }, operator: 'agent:a1' });
    await caught(() => host.resources.commit(r.id, { baseRevision: 0, op: { type: 'append', text: 'b' }, operator: 'agent:a2' }));
    expect(seen).toEqual(['create:0:human:ann', 'op:1:agent:a1']);
  });
});
