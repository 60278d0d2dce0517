/**
 * Invariant (property): no body, however malformed, makes the API answer 500, and a refused
 * request writes nothing: after any 4xx the resource list, each history and each candidate list
 * are as they were. A commit either adds exactly one revision (200), or keeps the op as exactly
 * one candidate (409 revision_conflict), or changes nothing.
 */
import fc from 'fast-check';
import { body, startTestServer, type TestServer } from './harness';

let t: TestServer;
let id: string;
beforeAll(async () => {
  t = await startTestServer({ bodyLimit: 16 * 1024 });
  id = (await t.host.resources.create({ kind: 'text', content: { text: 'seed' }, operator: 'human:ann' })).id;
});
afterAll(() => t.dispose());

const operator = fc.oneof(fc.constantFrom('human:ann', 'agent:bot-1'), fc.string({ maxLength: 12 }), fc.integer(), fc.constant(null));
/** Stands for the resource's revision at the time of the request, so that some commits are current. */
const CURRENT = '@current';
const revision = fc.oneof(fc.constant(CURRENT), fc.integer({ min: -2, max: 40 }), fc.double(), fc.string({ maxLength: 3 }), fc.constant(null), fc.constant(2 ** 60));
const textOp = fc.oneof(
  fc.record({ type: fc.constantFrom('set', 'append'), text: fc.string({ maxLength: 20 }) }),
  fc.record({ type: fc.constant('insert'), at: fc.integer({ min: -1, max: 50 }), text: fc.string({ maxLength: 5 }) }),
  fc.record({ type: fc.constant('delete'), at: fc.integer({ min: -1, max: 50 }), length: fc.integer({ min: -1, max: 50 }) }),
);
const anyJson = fc.jsonValue({ maxDepth: 4 });
/** A body that is sometimes right, mostly nearly right, and sometimes nothing like it. */
const commitBody = fc.oneof(
  { weight: 3, arbitrary: fc.record({ baseRevision: fc.oneof(fc.constant(CURRENT), fc.nat({ max: 30 })), op: textOp, operator: fc.constantFrom('human:ann', 'agent:bot-1') }) },
  { weight: 3, arbitrary: fc.record({ baseRevision: revision, op: fc.oneof(textOp, anyJson), operator, idempotencyKey: fc.string({ maxLength: 8 }), extra: anyJson }, { requiredKeys: ['baseRevision', 'op', 'operator'] }) },
  { weight: 2, arbitrary: fc.record({ baseRevision: revision, op: fc.oneof(textOp, anyJson), operator }, { requiredKeys: [] }) },
  { weight: 1, arbitrary: anyJson },
);
const createBody = fc.oneof(
  fc.record({ kind: fc.oneof(fc.constant('text'), fc.string({ maxLength: 6 }), anyJson), content: fc.oneof(fc.record({ text: fc.string() }), anyJson), operator }, { requiredKeys: [] }),
  anyJson,
);
/** Raw bytes sent as JSON: truncated, doubled, or random text. */
const rawPayload = fc.oneof(
  fc.json({ maxDepth: 3 }).map((text) => text.slice(0, Math.max(0, text.length - 1))),
  fc.string({ maxLength: 40 }),
  fc.constantFrom('{"baseRevision":0,"op":{"type":"append","text":"x"},"operator":"human:ann"}{}', '{"__proto__":{"a":1}}', '{"constructor":{"prototype":{}}}', 'null', '[]', '"x"', '\u0000'),
);

async function snapshot(): Promise<unknown> {
  const resources = await t.host.resources.list();
  return Promise.all(
    resources.map(async (r) => ({ r, history: await t.host.resources.history(r.id), candidates: await t.host.resources.listCandidates(r.id) })),
  );
}

it('commits: never 500; 200 adds one revision, 409 keeps one candidate, anything else writes nothing', async () => {
  const statuses = new Map<number, number>();
  await fc.assert(
    fc.asyncProperty(commitBody, async (payload) => {
      const before = await t.host.resources.get(id);
      const candidatesBefore = (await t.host.resources.listCandidates(id)).length;
      const text = JSON.stringify(payload).replaceAll(JSON.stringify(CURRENT), String(before.revision));
      const res = await t.request({ method: 'POST', url: `/api/resources/${id}/commits`, payload: text, headers: { 'content-type': 'application/json' } });
      expect(res.statusCode).toBeLessThan(500);
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      const after = await t.host.resources.get(id);
      const candidatesAfter = (await t.host.resources.listCandidates(id)).length;
      if (res.statusCode === 200) {
        expect(body(res)).toEqual({ resourceId: id, revision: before.revision + 1 });
        expect(after.revision).toBe(before.revision + 1);
        expect(candidatesAfter).toBe(candidatesBefore);
      } else if (res.statusCode === 409) {
        expect(body<{ error: { code: string } }>(res).error.code).toBe('revision_conflict');
        expect(after).toEqual(before);
        expect(candidatesAfter).toBe(candidatesBefore + 1);
      } else {
        expect(res.statusCode).toBeGreaterThanOrEqual(400);
        expect(after).toEqual(before);
        expect(candidatesAfter).toBe(candidatesBefore);
      }
      expect(await t.host.resources.history(id)).toHaveLength(after.revision + 1);
    }),
    { numRuns: 300 },
  );
  // The generators reach every outcome, not only the refusals.
  expect([...statuses.keys()].sort()).toEqual(expect.arrayContaining([200, 400, 409]));
});

it('creates: never 500; 201 adds one resource at revision 0, anything else writes nothing', async () => {
  let created = 0;
  await fc.assert(
    fc.asyncProperty(createBody, async (payload) => {
      const before = await snapshot();
      const res = await t.request({ method: 'POST', url: '/api/resources', payload: JSON.stringify(payload), headers: { 'content-type': 'application/json' } });
      expect(res.statusCode).toBeLessThan(500);
      if (res.statusCode === 201) {
        const resource = body<{ id: string; revision: number }>(res);
        expect(resource.revision).toBe(0);
        expect(await t.host.resources.history(resource.id)).toHaveLength(1);
        created++;
        expect((await t.host.resources.list()).length).toBe((before as unknown[]).length + 1);
      } else {
        expect(res.statusCode).toBeGreaterThanOrEqual(400);
        expect(await snapshot()).toEqual(before);
      }
    }),
    { numRuns: 300 },
  );
  expect(created).toBeGreaterThan(0);
});

it('raw bodies that are not the JSON they claim to be: 4xx, never 500, nothing written', async () => {
  await fc.assert(
    fc.asyncProperty(rawPayload, fc.constantFrom('/api/resources', `/api/resources/${id}/commits`, `/api/resources/${id}/restore`, '/api/tasks', '/api/session'), async (payload, url) => {
      const before = await snapshot();
      const res = await t.request({ method: 'POST', url, payload, headers: { 'content-type': 'application/json' } });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(await snapshot()).toEqual(before);
    }),
    { numRuns: 200 },
  );
});
