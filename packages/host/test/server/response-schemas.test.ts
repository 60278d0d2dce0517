/**
 * Invariant: the API's response schemas cover everything the store can hold. Every revision action
 * the store writes (`REVISION_ACTIONS`) and every candidate status (`CANDIDATE_STATUSES`) is made
 * through the protocol here, and each route that returns them answers 200 with them, not 500.
 */
import { CANDIDATE_STATUSES, REVISION_ACTIONS, type RevisionRecord } from '../../src/store/records';
import { FakeApp, scenePlugin } from '../support/fake-external-app';
import { body, startTestServer, type TestServer } from './harness';

let t: TestServer;
const app = new FakeApp();
const ids: string[] = [];
beforeAll(async () => {
  t = await startTestServer({}, { plugins: [scenePlugin(app)], externalPollMs: 0 });
  const resources = t.host.resources;
  const text = await resources.create({ kind: 'text', content: { text: 'a' }, operator: 'human:ann' });
  await resources.commit(text.id, { baseRevision: 0, op: { type: 'append', text: 'b' }, operator: 'agent:a1' });
  await resources.restore(text.id, { revision: 0, baseRevision: 1, operator: 'human:ann' });
  // Candidates in every status: a conflict left open, one accepted, one rejected, one discarded.
  const conflicted = async (): Promise<string> => {
    const error = await resources.commit(text.id, { baseRevision: 0, op: { type: 'append', text: 'late' }, operator: 'agent:a2' }).catch((e: { details?: { candidateId?: string } }) => e);
    return (error as { details: { candidateId: string } }).details.candidateId;
  };
  await conflicted();
  await resources.acceptCandidate(await conflicted(), { operator: 'human:ann', baseRevision: 2 });
  await resources.rejectCandidate(await conflicted(), 'human:ann');
  await resources.discardCandidate(await conflicted(), 'agent:a2');
  const scene = await resources.create({ kind: 'scene.ext', operator: 'human:ann' });
  await resources.commit(scene.id, { baseRevision: 0, op: { type: 'add', name: 'cube' }, operator: 'agent:a1' });
  app.shapes.push('light'); // a person adds a light in the application: an external revision
  await resources.syncExternal(scene.id);
  ids.push(text.id, scene.id);
});
afterAll(() => t.dispose());

it('the resources here hold every revision action the store writes', async () => {
  const actions = new Set<string>();
  for (const id of ids) for (const r of await t.host.resources.history(id)) actions.add(r.action);
  expect([...actions].sort()).toEqual([...REVISION_ACTIONS].sort());
});

it.each(['revisions', 'changes?since=0', 'revisions?after=-1&limit=1000'])('GET /api/resources/:id/%s answers every action', async (path) => {
  for (const id of ids) {
    const res = await t.request({ method: 'GET', url: `/api/resources/${id}/${path}` });
    expect(res.statusCode).toBe(200);
    const listed = body<{ revisions?: RevisionRecord[]; changes?: RevisionRecord[] }>(res);
    const history = await t.host.resources.history(id);
    const expected = path.startsWith('changes') ? history.slice(1) : history;
    expect((listed.revisions ?? listed.changes)!.map((r) => [r.revision, r.action, r.operator])).toEqual(expected.map((r) => [r.revision, r.action, r.operator]));
  }
});

it('GET /api/resources/:id/candidates and /api/candidates/:id answer every status', async () => {
  const [textId] = ids;
  const all = await t.host.resources.listCandidates(textId!);
  expect([...new Set(all.map((c) => c.status))].sort()).toEqual([...CANDIDATE_STATUSES].sort());
  for (const status of CANDIDATE_STATUSES) {
    const res = await t.request({ method: 'GET', url: `/api/resources/${textId}/candidates?status=${status}` });
    expect(res.statusCode).toBe(200);
    expect(body<{ candidates: { status: string }[] }>(res).candidates.map((c) => c.status)).toEqual(all.filter((c) => c.status === status).map(() => status));
  }
  for (const candidate of all) {
    const res = await t.request({ method: 'GET', url: `/api/candidates/${candidate.id}` });
    expect(res.statusCode).toBe(200);
    expect(body(res)).toMatchObject({ id: candidate.id, status: candidate.status });
  }
});
