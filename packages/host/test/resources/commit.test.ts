/**
 * Invariant: a commit applies only on the current revision; any other base fails with
 * `revision_conflict`, reports the current revision, and keeps the op as an open candidate.
 * Bad input fails with a stable code and writes nothing.
 */
import { Host } from '../../src/host';
import { caught, openTempHost } from '../support/temp-host';

describe('resource commits', () => {
  let host: Host & { dispose: () => Promise<void> };
  beforeEach(async () => {
    host = await openTempHost({ limits: { maxContentBytes: 1024 } });
  });
  afterEach(() => host.dispose());

  it('creates at revision 0 with the kind initial content and commits on the current revision', async () => {
    const r = await host.resources.create({ kind: 'text', operator: 'human:ann' });
    expect(r).toMatchObject({ kind: 'text', revision: 0, content: { text: '' } });
    await expect(host.resources.commit(r.id, { baseRevision: 0, op: { type: 'set', text: 'a' }, operator: 'human:ann' })).resolves.toEqual({
      resourceId: r.id,
      revision: 1,
    });
    await host.resources.commit(r.id, { baseRevision: 1, op: { type: 'append', text: 'b' }, operator: 'agent:a1' });
    expect(await host.resources.get(r.id)).toMatchObject({ revision: 2, content: { text: 'ab' } });
  });

  it('rejects a stale base with revision_conflict and keeps the op as a candidate', async () => {
    const r = await host.resources.create({ kind: 'text', content: { text: 'x' }, operator: 'human:ann' });
    await host.resources.commit(r.id, { baseRevision: 0, op: { type: 'append', text: '1' }, operator: 'human:ann' });
    const error = await caught(() =>
      host.resources.commit(r.id, { baseRevision: 0, op: { type: 'append', text: '2' }, operator: 'agent:a1' }),
    );
    expect(error.code).toBe('revision_conflict');
    expect(error.details).toMatchObject({ resourceId: r.id, baseRevision: 0, currentRevision: 1 });
    const candidates = await host.resources.listCandidates(r.id, 'open');
    expect(candidates).toEqual([
      expect.objectContaining({
        id: error.details!.candidateId,
        ops: [{ type: 'append', text: '2' }],
        operator: 'agent:a1',
        baseRevision: 0,
        source: 'conflict',
      }),
    ]);
    expect(await host.resources.get(r.id)).toMatchObject({ revision: 1, content: { text: 'x1' } });
  });

  it('retries a candidate against a newer base, and the candidate is then accepted', async () => {
    const r = await host.resources.create({ kind: 'text', operator: 'human:ann' });
    await host.resources.commit(r.id, { baseRevision: 0, op: { type: 'append', text: 'A' }, operator: 'human:ann' });
    const conflict = await caught(() =>
      host.resources.commit(r.id, { baseRevision: 0, op: { type: 'append', text: 'B' }, operator: 'agent:a1' }),
    );
    const candidateId = conflict.details!.candidateId as string;
    // Accepting against the stale base conflicts again and leaves the candidate open.
    expect((await caught(() => host.resources.acceptCandidate(candidateId, { operator: 'agent:a1' }))).code).toBe('revision_conflict');
    expect((await host.resources.getCandidate(candidateId)).status).toBe('open');
    await expect(host.resources.acceptCandidate(candidateId, { operator: 'agent:a1', baseRevision: 1 })).resolves.toMatchObject({
      revision: 2,
    });
    expect(await host.resources.getCandidate(candidateId)).toMatchObject({ status: 'accepted', acceptedRevision: 2, resolvedBy: 'agent:a1' });
    expect((await host.resources.get(r.id)).content).toEqual({ text: 'AB' });
    expect((await caught(() => host.resources.discardCandidate(candidateId, 'human:ann'))).code).toBe('candidate_closed');
  });

  it('discards a candidate without touching the resource', async () => {
    const r = await host.resources.create({ kind: 'text', operator: 'human:ann' });
    await host.resources.commit(r.id, { baseRevision: 0, op: { type: 'append', text: 'A' }, operator: 'human:ann' });
    const conflict = await caught(() =>
      host.resources.commit(r.id, { baseRevision: 0, op: { type: 'append', text: 'B' }, operator: 'agent:a1' }),
    );
    const discarded = await host.resources.discardCandidate(conflict.details!.candidateId as string, 'agent:a1');
    expect(discarded.status).toBe('discarded');
    expect(await host.resources.listCandidates(r.id, 'open')).toEqual([]);
    expect((await host.resources.get(r.id)).revision).toBe(1);
  });

  it('commits on a head this host cached only while no other host moved it (two hosts, one workspace)', async () => {
    const other = await Host.open({ workspaceDir: host.workspaceDir });
    try {
      const r = await host.resources.create({ kind: 'text', operator: 'human:ann' });
      await host.resources.commit(r.id, { baseRevision: 0, op: { type: 'append', text: 'a' }, operator: 'human:ann' });
      await other.resources.commit(r.id, { baseRevision: 1, op: { type: 'append', text: 'b' }, operator: 'human:bo' });
      // This host's cached head is revision 1, which is no longer current: a commit on it conflicts.
      const conflict = await caught(() => host.resources.commit(r.id, { baseRevision: 1, op: { type: 'append', text: 'c' }, operator: 'agent:a1' }));
      expect(conflict.details).toMatchObject({ baseRevision: 1, currentRevision: 2 });
      expect(conflict.code).toBe('revision_conflict');
      // A base newer than the cached head is read from the store and applied to the other host's content.
      await expect(host.resources.commit(r.id, { baseRevision: 2, op: { type: 'append', text: 'd' }, operator: 'agent:a1' })).resolves.toMatchObject({ revision: 3 });
      expect((await other.resources.get(r.id)).content).toEqual({ text: 'abd' });
      // And a base older than the cached head conflicts without reading it.
      expect((await caught(() => host.resources.commit(r.id, { baseRevision: 0, op: { type: 'append', text: 'e' }, operator: 'agent:a1' }))).details).toMatchObject({ currentRevision: 3 });
      expect((await host.resources.listCandidates(r.id, 'open')).map((c) => c.ops)).toEqual([[{ type: 'append', text: 'c' }], [{ type: 'append', text: 'e' }]]);
    } finally {
      await other.close();
    }
  });

  it('a commit that waited on another on the same base is written when that one fails', async () => {
    const r = await host.resources.create({ kind: 'text', content: { text: 'x'.repeat(500) }, operator: 'human:ann' });
    await host.resources.commit(r.id, { baseRevision: 0, op: { type: 'append', text: '.' }, operator: 'human:ann' });
    const stats = (): number => (host.store as unknown as { groupCommitStats: { transactions: number } }).groupCommitStats.transactions;
    const before = stats();
    // Both on revision 1: the first is prepared first and fails there (the content would pass the
    // 1 KiB limit); the second, deferred behind it, finds the head still at 1 and is written.
    const [tooLarge, small] = await Promise.allSettled([
      host.resources.commit(r.id, { baseRevision: 1, op: { type: 'append', text: 'y'.repeat(600) }, operator: 'agent:a1' }),
      host.resources.commit(r.id, { baseRevision: 1, op: { type: 'append', text: 'z' }, operator: 'agent:a2' }),
    ]);
    expect(tooLarge).toMatchObject({ status: 'rejected', reason: { code: 'content_too_large' } });
    expect(small).toEqual({ status: 'fulfilled', value: { resourceId: r.id, revision: 2 } });
    // The deferred one's first transaction found its base current and wrote nothing; its second wrote the revision.
    expect(stats() - before).toBe(2);
    expect(await host.resources.listCandidates(r.id, 'open')).toEqual([]);
    expect((await host.resources.get(r.id)).content).toEqual({ text: `${'x'.repeat(500)}.z` });
  });

  it('returns the recorded result for a repeated idempotency key instead of committing twice', async () => {
    const r = await host.resources.create({ kind: 'text', operator: 'human:ann' });
    const request = { baseRevision: 0, op: { type: 'append', text: 'once' }, operator: 'agent:a1' as const, idempotencyKey: 'task1/turn3/call2' };
    const first = await host.resources.commit(r.id, request);
    const again = await host.resources.commit(r.id, request);
    expect(again).toEqual(first);
    expect((await host.resources.get(r.id)).content).toEqual({ text: 'once' });
    expect(await host.resources.history(r.id)).toHaveLength(2);
  });

  describe('bad input gets a stable code and writes nothing', () => {
    const cases: [string, (id: string) => Record<string, unknown>, string][] = [
      ['a negative base', () => ({ baseRevision: -1, op: { type: 'append', text: 'x' }, operator: 'human:ann' }), 'invalid_input'],
      ['a fractional base', () => ({ baseRevision: 0.5, op: { type: 'append', text: 'x' }, operator: 'human:ann' }), 'invalid_input'],
      ['a string base', () => ({ baseRevision: '0', op: { type: 'append', text: 'x' }, operator: 'human:ann' }), 'invalid_input'],
      ['a missing op', () => ({ baseRevision: 0, operator: 'human:ann' }), 'invalid_input'],
      ['an op of an unknown type', () => ({ baseRevision: 0, op: { type: 'explode' }, operator: 'human:ann' }), 'invalid_op'],
      ['an op the content refuses', () => ({ baseRevision: 0, op: { type: 'delete', at: 5, length: 2 }, operator: 'human:ann' }), 'invalid_op'],
      ['a malformed operator', () => ({ baseRevision: 0, op: { type: 'append', text: 'x' }, operator: 'root' }), 'invalid_input'],
      ['content over the size limit', () => ({ baseRevision: 0, op: { type: 'append', text: 'x'.repeat(2000) }, operator: 'human:ann' }), 'content_too_large'],
    ];
    it.each(cases)('%s', async (_name, request, code) => {
      const r = await host.resources.create({ kind: 'text', operator: 'human:ann' });
      const error = await caught(() => host.resources.commit(r.id, request(r.id) as never));
      expect(error.code).toBe(code);
      expect(await host.resources.history(r.id)).toHaveLength(1);
      expect(await host.resources.listCandidates(r.id)).toEqual([]);
    });

    it('an unknown resource is not_found', async () => {
      const error = await caught(() =>
        host.resources.commit('res_missing', { baseRevision: 0, op: { type: 'append', text: 'x' }, operator: 'human:ann' }),
      );
      expect(error.code).toBe('not_found');
    });

    it('an unknown kind, invalid content and oversize content are refused at create', async () => {
      expect((await caught(() => host.resources.create({ kind: 'spreadsheet', operator: 'human:ann' }))).code).toBe('unknown_kind');
      expect((await caught(() => host.resources.create({ kind: 'text', content: { words: 1 }, operator: 'human:ann' }))).code).toBe(
        'invalid_content',
      );
      expect(
        (await caught(() => host.resources.create({ kind: 'text', content: { text: 'y'.repeat(5000) }, operator: 'human:ann' }))).code,
      ).toBe('content_too_large');
      expect(await host.resources.list()).toEqual([]);
    });
  });
});
