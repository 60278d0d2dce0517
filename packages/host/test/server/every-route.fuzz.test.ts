/**
 * Invariant: no request to any route of the OpenAPI document makes the server answer 5xx, an error
 * outside the documented shape, or an error whose code is not the registry's (at the registry's
 * status for it), or leaves it without an answer; and nothing is written in part. Over 10,000
 * schema-driven cases (the testkit's route fuzzer), shared between the owner's token, an editor's
 * and a viewer's, against a listening server holding resources of a host kind, an external kind and
 * a web-app kind, with candidates in every status. After the run the database passes SQLite's
 * integrity check, every resource's history runs from 0 to its head without a gap, and the
 * revisions that appeared are exactly those the 2xx commit, restore and accept answers named.
 */
import { ensureTaskFolders, taskPaths } from '../../src/agents/task-files';
import { fuzzRoutes, type FuzzAnswer, type RouteFuzzReport } from '../../src/testkit/route-fuzz';
import { FakeApp, scenePlugin } from '../support/fake-external-app';
import { sitePlugin } from '../support/site-kind';
import { body, startTestServer, TOKEN, type TestServer } from './harness';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ port: 0 }, { plugins: [scenePlugin(new FakeApp()), sitePlugin], externalPollMs: 0 });
});
afterAll(() => t.dispose());

/** Answers that write a revision: `{ resourceId, revision }` on 200. */
const REVISING = new Set(['POST /api/resources/{id}/commits', 'POST /api/resources/{id}/restore', 'POST /api/candidates/{id}/accept']);
/** Answers that create a resource at revision 0: the resource on 201. */
const CREATING = new Set(['POST /api/resources', 'POST /api/resources/import']);
/** The criterion: at least this many cases in all. */
const MIN_CASES = 10_000;

it('answers every case of every route below 500, with registry errors, as owner, editor and viewer; writes nothing in part', async () => {
  const resources = t.host.resources;
  const text = await resources.create({ kind: 'text', content: { text: 'seed' }, operator: 'human:ann' });
  await resources.commit(text.id, { baseRevision: 0, op: { type: 'append', text: '!' }, operator: 'human:ann' });
  const conflict = await resources.commit(text.id, { baseRevision: 0, op: { type: 'append', text: '?' }, operator: 'agent:bot' }).catch((e: { details: { candidateId: string } }) => e.details.candidateId);
  const scene = await resources.create({ kind: 'scene.ext', operator: 'human:ann' });
  const site = await resources.create({ kind: 'test.site', operator: 'human:ann' });
  // A task with its folders, so that the task routes (state, log, files, published) have one to answer about.
  const taskId = 'task_fuzz';
  ensureTaskFolders(taskPaths(t.host.workspaceDir, taskId));
  await t.host.coordinator.record({ type: 'task.created', data: { taskId, request: 'fuzz the routes' } });
  const url = await t.listenHttp();
  const tokens: Record<string, string> = {};
  for (const [name, role] of [['fuzzeditor', 'editor'], ['fuzzviewer', 'viewer']] as const) {
    const res = await t.request({ method: 'POST', url: '/api/users', payload: { name, role } });
    expect(res.statusCode).toBe(201);
    tokens[role] = body<{ token: string }>(res).token;
  }
  const headsBefore = new Map((await resources.list()).map((r) => [r.id, r.revision]));

  const answers: (FuzzAnswer & { as: string })[] = [];
  // The heads of the seeded resources, kept current from the answers (the fuzzer sends one case at
  // a time and reads `known` for each), so that many commits name the current revision and apply.
  const heads: number[] = [...headsBefore.values()];
  const seeded = [...headsBefore.keys()];
  const onAnswer = (answer: FuzzAnswer, as: string): void => {
    answers.push({ ...answer, as });
    if (answer.status !== 200 || !REVISING.has(answer.route)) return;
    const { resourceId, revision } = JSON.parse(answer.body) as { resourceId: string; revision: number };
    if (seeded.includes(resourceId)) heads[seeded.indexOf(resourceId)] = Math.max(revision, heads[seeded.indexOf(resourceId)]!);
  };
  const run = (as: string, token: string, seed: number, casesPerRoute: number): Promise<RouteFuzzReport> =>
    fuzzRoutes({
      url,
      token,
      seed,
      casesPerRoute,
      casesFor: {
        // Each demo starts a whole recorded task; its only input is a body it ignores.
        'POST /api/demo': 4,
        // The writes get more: few of their cases name an existing resource, its head and a fitting op.
        ...Object.fromEntries([...REVISING].map((route) => [route, casesPerRoute * 3])),
      },
      // /mcp speaks JSON-RPC, whose errors have their own shape: test/mcp-server/bad-input.test.ts and the conformance suite cover it.
      skip: ['POST /mcp', 'GET /mcp', 'DELETE /mcp'],
      onAnswer: (answer) => onAnswer(answer, as),
      known: {
        id: [text.id, scene.id, site.id, String(conflict), taskId],
        // The page's own files and vendored modules, and a person the owner may revoke last.
        name: ['app.js', 'three.module.js', 'fuzzviewer'],
        format: ['txt', 'zip', 'json'],
        kind: ['text', 'scene.ext', 'test.site'],
        fileName: ['notes.txt'],
        '*': ['index.html'],
        op: [{ type: 'append', text: 'x' }, { type: 'add', name: 'cube' }, { path: 'a.html', text: '<p>a</p>' }],
        content: [{ text: 'hi' }, { shapes: [] }, { files: { 'index.html': '' } }],
        // A person may name only themselves; the owner names anyone.
        operator: ['human:fuzzeditor', 'human:fuzzviewer', 'agent:bot-1'],
        baseRevision: heads,
      },
    });
  // The owner goes last: it may add and remove people, and the other two must keep their tokens.
  const reports = { viewer: await run('viewer', tokens.viewer!, 13, 80), editor: await run('editor', tokens.editor!, 12, 80), owner: await run('owner', TOKEN, 11, 150) };

  for (const report of Object.values(reports)) expect(report.failures).toEqual([]);
  const total = Object.values(reports).reduce((sum, r) => sum + r.cases, 0);
  expect(total).toBeGreaterThanOrEqual(MIN_CASES);
  expect(answers).toHaveLength(total);
  // Every route of the document was fuzzed with every credential.
  const routes = reports.owner.routes.map((r) => r.route);
  expect(routes).toEqual(expect.arrayContaining(['POST /api/resources/{id}/commits', 'GET /apps/{id}/*', 'POST /api/resources/import', 'GET /api/resources/{id}/export/{format}', 'POST /api/users']));
  for (const report of Object.values(reports)) expect(report.routes.map((r) => r.route)).toEqual(routes);
  // The cases reach past validation: most routes answered some successes, not only refusals.
  const succeeded = routes.filter((route) => Object.values(reports).some((r) => Object.keys(r.routes.find((x) => x.route === route)!.statuses).some((s) => Number(s) < 400)));
  expect(succeeded.length).toBeGreaterThan(routes.length * 0.6);
  // A viewer changed nothing: none of its writes succeeded (the ones that fit were forbidden).
  const viewerWrites = answers.filter((a) => a.as === 'viewer' && (REVISING.has(a.route) || CREATING.has(a.route)));
  expect(viewerWrites.filter((a) => a.status < 300)).toEqual([]);
  expect(viewerWrites.some((a) => a.status === 403 && (JSON.parse(a.body) as { error: { code: string } }).error.code === 'forbidden')).toBe(true);

  // No partial write: the revisions that appeared are exactly those the successes named (a repeated
  // idempotency key is answered with its first revision, so a revision may be named more than once).
  expect(await t.host.store.integrityCheck()).toEqual([]);
  const named = new Set<string>();
  const created = new Set<string>();
  const demos = new Set<string>();
  let revisingSuccesses = 0;
  for (const answer of answers) {
    if (answer.status >= 300 || !(REVISING.has(answer.route) || CREATING.has(answer.route) || answer.route === 'POST /api/demo')) continue;
    const parsed = JSON.parse(answer.body) as { resourceId?: string; revision?: number; id?: string };
    if (REVISING.has(answer.route)) {
      revisingSuccesses++;
      named.add(`${parsed.resourceId}@${parsed.revision}`);
    } else if (CREATING.has(answer.route)) created.add(parsed.id!);
    else if (answer.route === 'POST /api/demo') demos.add(parsed.resourceId!);
  }
  expect(revisingSuccesses).toBeGreaterThan(10);
  const appeared = new Set<string>();
  const after = await resources.list();
  for (const resource of after) {
    const history = await resources.history(resource.id);
    // Contiguous from 0 to the head, whoever wrote it (the demo tasks too).
    expect({ id: resource.id, revisions: history.map((r) => r.revision) }).toEqual({ id: resource.id, revisions: Array.from({ length: resource.revision + 1 }, (_, i) => i) });
    if (demos.has(resource.id)) continue;
    const before = headsBefore.get(resource.id) ?? (created.has(resource.id) ? 0 : undefined);
    expect({ id: resource.id, known: before !== undefined }).toEqual({ id: resource.id, known: true });
    for (let revision = before! + 1; revision <= resource.revision; revision++) appeared.add(`${resource.id}@${revision}`);
  }
  expect([...appeared].sort()).toEqual([...named].sort());
  // Every resource is one that existed, one a 201 answered, or a demo's.
  expect(after.map((r) => r.id).sort()).toEqual([...new Set([...headsBefore.keys(), ...created, ...demos])].sort());
  // Nor did anything fail where no request could report it (a 500's cause, a background task).
  expect(t.errors).toEqual([]);
}, 600_000);
