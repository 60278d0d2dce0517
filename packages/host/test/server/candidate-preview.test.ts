/**
 * Invariant: previewing a candidate shows what accepting it on a revision would make (the kind's
 * diff and the content) and writes nothing; a candidate whose ops no longer apply to that revision
 * answers the kind's error, as accepting it would.
 */
import { boardPlugin } from '../support/board-kind';
import { body, errorCode, startTestServer, type TestServer } from './harness';

let t: TestServer;
afterEach(() => t?.dispose());

it("previews a proposed draft on the current revision and on its base, and refuses one that no longer applies", async () => {
  t = await startTestServer({}, { plugins: [boardPlugin] });
  const { id } = await t.host.resources.create({ kind: 'test.board', content: { title: 'Plan', width: 1, sizes: [], cards: [{ id: 'c1', title: 'Kickoff', points: [] }] }, operator: 'human:ann' });
  const draft = await t.host.resources.createDraft(id, 'agent:a1');
  await t.host.resources.editDraft(draft.id, { type: 'add_card', title: 'Budget' }, 'agent:a1');
  const candidate = await t.host.resources.proposeDraft(draft.id, 'agent:a1');
  await t.host.resources.commit(id, { baseRevision: 0, op: { type: 'set_width', width: 5 }, operator: 'human:ann' });

  const now = await t.request({ method: 'GET', url: `/api/candidates/${candidate.id}/preview` });
  expect(now.statusCode).toBe(200);
  expect(body(now)).toMatchObject({ candidateId: candidate.id, revision: 1, diff: 'added card c2: Budget', content: { width: 5, cards: [{ id: 'c1' }, { id: 'c2', title: 'Budget' }] } });
  expect(body(await t.request({ method: 'GET', url: `/api/candidates/${candidate.id}/preview?revision=0` }))).toMatchObject({ revision: 0, content: { width: 1 } });
  expect((await t.host.resources.get(id)).revision).toBe(1);
  expect((await t.host.resources.getCandidate(candidate.id)).status).toBe('open');

  const edit = await t.host.resources.createDraft(id, 'agent:a1');
  await t.host.resources.editDraft(edit.id, { type: 'set_card', id: 'c1', title: 'Kickoff!' }, 'agent:a1');
  const stale = await t.host.resources.proposeDraft(edit.id, 'agent:a1');
  await t.host.resources.commit(id, { baseRevision: 1, op: { type: 'remove_card', id: 'c1' }, operator: 'human:ann' });
  const refused = await t.request({ method: 'GET', url: `/api/candidates/${stale.id}/preview` });
  expect([refused.statusCode, errorCode(refused)]).toEqual([400, 'invalid_op']);
  expect(refused.body).toContain('there is no card c1');
});
