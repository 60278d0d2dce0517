/**
 * Invariant: every HTTP route answers with its documented shape and status, and every failure is
 * `{"error": {"code", "message", ...}}` with the status the error registry gives its code: 400 for
 * a bad body, 404 for an unknown id or route, 409 for a stale baseRevision (with currentRevision
 * and candidateId), 413 for a body over the limit. The OpenAPI document lists every route.
 */
import { body, errorCode, startTestServer, type TestServer } from './harness';

let t: TestServer;
beforeEach(async () => {
  t = await startTestServer({ bodyLimit: 64 * 1024 });
});
afterEach(() => t.dispose());

async function createText(text = ''): Promise<string> {
  const res = await t.request({ method: 'POST', url: '/api/resources', payload: { kind: 'text', content: { text }, operator: 'human:ann' } });
  expect(res.statusCode).toBe(201);
  return body<{ id: string }>(res).id;
}

function commit(id: string, payload: unknown): ReturnType<TestServer['request']> {
  return t.request({ method: 'POST', url: `/api/resources/${id}/commits`, payload: payload as Record<string, unknown> });
}

describe('meta', () => {
  it('answers health, plugins and the web page', async () => {
    const health = await t.request({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expect(body(health)).toEqual({ status: 'ok', version: expect.any(String), tasks: false });

    const plugins = body<{ plugins: { name: string; kinds: { name: string; revisionSemantics: string; opSchema: unknown }[] }[] }>(
      await t.request({ method: 'GET', url: '/api/plugins' }),
    );
    expect(plugins.plugins[0]).toMatchObject({ name: 'text', kinds: [{ name: 'text', revisionSemantics: 'host', opSchema: expect.any(Object) }] });

    const page = await t.request({ method: 'GET', url: '/', headers: { authorization: undefined } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('<script type="module" src="/web/app.js"');
    expect(page.headers).toMatchObject({ 'x-frame-options': 'DENY', 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' });
  });

  it('documents every route in the OpenAPI document', async () => {
    const doc = body<{ openapi: string; paths: Record<string, Record<string, { responses: Record<string, unknown> }>> }>(
      await t.request({ method: 'GET', url: '/api/openapi.json' }),
    );
    expect(doc.openapi).toBe('3.1.0');
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    expect(operations).toEqual(
      expect.arrayContaining([
        'GET /api/health',
        'GET /api/plugins',
        'GET /api/resources',
        'POST /api/resources',
        'GET /api/resources/{id}',
        'GET /api/resources/{id}/revisions',
        'GET /api/resources/{id}/revisions/{revision}',
        'GET /api/resources/{id}/changes',
        'POST /api/resources/{id}/commits',
        'POST /api/resources/{id}/restore',
        'GET /api/resources/{id}/candidates',
        'GET /api/candidates/{id}',
        'POST /api/candidates/{id}/accept',
        'POST /api/candidates/{id}/reject',
        'GET /api/tasks',
        'POST /api/tasks',
        'GET /api/tasks/{id}',
        'POST /api/tasks/{id}/messages',
        'POST /api/tasks/{id}/cancel',
        'GET /api/tasks/{id}/log',
        'POST /api/demo',
        'POST /api/ws-tickets',
        'POST /api/session',
        'DELETE /api/session',
        'GET /api/openapi.json',
        'GET /ws',
      ]),
    );
    expect(Object.keys(doc.paths['/api/resources/{id}/commits']!.post!.responses)).toEqual(['200', '400', '401', '403', '404', '409', '413']);
  });
});

describe('resources', () => {
  it('creates (201), reads, lists and shows revisions', async () => {
    const created = await t.request({ method: 'POST', url: '/api/resources', payload: { kind: 'text' } });
    expect(created.statusCode).toBe(201);
    const resource = body<{ id: string }>(created);
    expect(resource).toEqual({ id: expect.stringMatching(/^res_/), kind: 'text', revision: 0, content: { text: '' }, createdAt: expect.any(String), updatedAt: expect.any(String) });

    expect(body(await t.request({ method: 'GET', url: `/api/resources/${resource.id}` }))).toMatchObject({ id: resource.id, revision: 0 });
    expect(body(await t.request({ method: 'GET', url: '/api/resources?kind=text' }))).toMatchObject({ resources: [{ id: resource.id }] });
    expect(body(await t.request({ method: 'GET', url: `/api/resources/${resource.id}/revisions` }))).toEqual({
      revisions: [{ resourceId: resource.id, revision: 0, action: 'create', op: null, operator: 'human:user', createdAt: expect.any(String) }],
    });
  });

  it('commits (200 {revision}), reports changes by others, and refuses a stale base with 409', async () => {
    const id = await createText('a');
    const ok = await commit(id, { baseRevision: 0, op: { type: 'append', text: 'b' }, operator: 'human:ann' });
    expect(ok.statusCode).toBe(200);
    expect(body(ok)).toEqual({ resourceId: id, revision: 1 });
    await commit(id, { baseRevision: 1, op: { type: 'append', text: 'c' }, operator: 'agent:bot' });

    const changes = body<{ changes: { revision: number; operator: string }[] }>(
      await t.request({ method: 'GET', url: `/api/resources/${id}/changes?since=0&excludeOperator=human:ann` }),
    );
    expect(changes.changes.map((c) => [c.revision, c.operator])).toEqual([[2, 'agent:bot']]);

    const stale = await commit(id, { baseRevision: 1, op: { type: 'append', text: 'x' }, operator: 'human:ann' });
    expect(stale.statusCode).toBe(409);
    const error = body<{ error: Record<string, unknown> }>(stale).error;
    expect(error).toMatchObject({ code: 'revision_conflict', message: expect.any(String), currentRevision: 2, candidateId: expect.stringMatching(/^cand_/) });

    const candidates = body<{ candidates: { id: string; status: string }[] }>(await t.request({ method: 'GET', url: `/api/resources/${id}/candidates?status=open` }));
    expect(candidates.candidates).toEqual([expect.objectContaining({ id: error.candidateId, status: 'open', baseRevision: 1 })]);

    // Accepting the kept op against the new base commits it; the candidate is then closed.
    const accepted = await t.request({ method: 'POST', url: `/api/candidates/${String(error.candidateId)}/accept`, payload: { operator: 'human:ann', baseRevision: 2 } });
    expect(body(accepted)).toEqual({ resourceId: id, revision: 3 });
    const again = await t.request({ method: 'POST', url: `/api/candidates/${String(error.candidateId)}/reject`, payload: { operator: 'human:ann' } });
    expect([again.statusCode, errorCode(again)]).toEqual([409, 'candidate_closed']);
    expect(body(await t.request({ method: 'GET', url: `/api/resources/${id}` }))).toMatchObject({ revision: 3, content: { text: 'abcx' } });
  });

  it('restores an old revision as a new one and reads content at a revision', async () => {
    const id = await createText('one');
    await commit(id, { baseRevision: 0, op: { type: 'set', text: 'two' }, operator: 'human:ann' });
    const restored = await t.request({ method: 'POST', url: `/api/resources/${id}/restore`, payload: { revision: 0, baseRevision: 1, operator: 'human:ann' } });
    expect(body(restored)).toEqual({ resourceId: id, revision: 2 });
    expect(body(await t.request({ method: 'GET', url: `/api/resources/${id}/revisions/1` }))).toEqual({ resourceId: id, revision: 1, content: { text: 'two' } });
    expect(body(await t.request({ method: 'GET', url: `/api/resources/${id}` }))).toMatchObject({ revision: 2, content: { text: 'one' } });
    const stale = await t.request({ method: 'POST', url: `/api/resources/${id}/restore`, payload: { revision: 0, baseRevision: 1, operator: 'human:ann' } });
    expect([stale.statusCode, errorCode(stale)]).toEqual([409, 'revision_conflict']);
  });

  it('candidates: reads one and rejects it', async () => {
    const id = await createText();
    await commit(id, { baseRevision: 0, op: { type: 'append', text: 'a' }, operator: 'human:ann' });
    const conflict = body<{ error: { candidateId: string } }>(await commit(id, { baseRevision: 0, op: { type: 'append', text: 'b' }, operator: 'agent:x' }));
    const cid = conflict.error.candidateId;
    expect(body(await t.request({ method: 'GET', url: `/api/candidates/${cid}` }))).toMatchObject({ id: cid, operator: 'agent:x', ops: [{ type: 'append', text: 'b' }] });
    const rejected = await t.request({ method: 'POST', url: `/api/candidates/${cid}/reject`, payload: { operator: 'human:ann' } });
    expect(body(rejected)).toMatchObject({ candidate: { id: cid, status: 'rejected', resolvedBy: 'human:ann' } });
  });
});

describe('status codes', () => {
  it('400 for bodies that do not have the documented shape', async () => {
    const id = await createText();
    const cases: [string, unknown][] = [
      ['missing op', { baseRevision: 0, operator: 'human:ann' }],
      ['string revision (never coerced)', { baseRevision: '0', op: { type: 'append', text: 'x' }, operator: 'human:ann' }],
      ['negative revision', { baseRevision: -1, op: { type: 'append', text: 'x' }, operator: 'human:ann' }],
      ['bad operator', { baseRevision: 0, op: { type: 'append', text: 'x' }, operator: 'ann' }],
      ['unknown field', { baseRevision: 0, op: { type: 'append', text: 'x' }, operator: 'human:ann', force: true }],
      ['array body', [1, 2]],
    ];
    for (const [what, payload] of cases) {
      const res = await commit(id, payload);
      expect({ what, status: res.statusCode, code: errorCode(res) }).toEqual({ what, status: 400, code: 'invalid_input' });
    }
    const badOp = await commit(id, { baseRevision: 0, op: { type: 'explode' }, operator: 'human:ann' });
    expect([badOp.statusCode, errorCode(badOp)]).toEqual([400, 'invalid_op']);
    const badKind = await t.request({ method: 'POST', url: '/api/resources', payload: { kind: 'nope' } });
    expect([badKind.statusCode, errorCode(badKind)]).toEqual([400, 'unknown_kind']);
    const badContent = await t.request({ method: 'POST', url: '/api/resources', payload: { kind: 'text', content: { text: 5 } } });
    expect([badContent.statusCode, errorCode(badContent)]).toEqual([400, 'invalid_content']);
    const badQuery = await t.request({ method: 'GET', url: `/api/resources/${id}/changes?since=abc` });
    expect([badQuery.statusCode, errorCode(badQuery)]).toEqual([400, 'invalid_input']);
  });

  it('400 invalid_json for malformed or empty JSON, and refuses non-JSON bodies', async () => {
    const json = { 'content-type': 'application/json' };
    const malformed = await t.request({ method: 'POST', url: '/api/resources', payload: '{"kind": "text",', headers: json });
    expect([malformed.statusCode, errorCode(malformed)]).toEqual([400, 'invalid_json']);
    const poisoned = await t.request({ method: 'POST', url: '/api/resources', payload: '{"kind":"text","__proto__":{"x":1}}', headers: json });
    expect([poisoned.statusCode, errorCode(poisoned)]).toEqual([400, 'invalid_json']);
    const empty = await t.request({ method: 'POST', url: '/api/resources', payload: '', headers: json });
    expect([empty.statusCode, errorCode(empty)]).toEqual([400, 'invalid_json']);
    const text = await t.request({ method: 'POST', url: '/api/resources', payload: 'kind=text', headers: { 'content-type': 'text/plain' } });
    expect([text.statusCode, errorCode(text)]).toEqual([400, 'invalid_input']);
  });

  it('404 for unknown ids and routes', async () => {
    for (const url of ['/api/resources/res_nope', '/api/resources/res_nope/revisions', '/api/resources/res_nope/candidates', '/api/candidates/cand_nope', '/api/tasks/task_nope', '/api/tasks/task_nope/log', '/api/nothing']) {
      const res = await t.request({ method: 'GET', url });
      expect({ url, status: res.statusCode, code: errorCode(res) }).toEqual({ url, status: 404, code: 'not_found' });
    }
    const res = await commit('res_nope', { baseRevision: 0, op: { type: 'append', text: 'x' }, operator: 'human:ann' });
    expect([res.statusCode, errorCode(res)]).toEqual([404, 'not_found']);
  });

  it('413 for a body over the limit, and writes nothing', async () => {
    const id = await createText();
    const res = await commit(id, { baseRevision: 0, op: { type: 'append', text: 'x'.repeat(70 * 1024) }, operator: 'human:ann' });
    expect([res.statusCode, errorCode(res)]).toEqual([413, 'content_too_large']);
    expect(body(await t.request({ method: 'GET', url: `/api/resources/${id}` }))).toMatchObject({ revision: 0 });
  });

  it('never sends a stack trace: an unexpected failure is a bare 500 internal', async () => {
    const failing = await startTestServer();
    try {
      jest.spyOn(failing.host.resources, 'list').mockRejectedValue(new TypeError('secret internals at /src/x.ts:1'));
      const res = await failing.request({ method: 'GET', url: '/api/resources' });
      expect(res.statusCode).toBe(500);
      expect(errorCode(res)).toBe('internal');
      expect(res.body).not.toContain('secret');
      expect(failing.errors).toHaveLength(1);
    } finally {
      await failing.dispose();
    }
  });
});
