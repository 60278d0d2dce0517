/**
 * Invariant: a person saves their selection on a resource over HTTP and WebSocket, always as the
 * credential's person (a viewer too: a selection changes no resource); naming someone else is
 * forbidden and saves nothing; a bad selection is refused with a coded error; every person's
 * selection is listed and is in an agent's view of the resource.
 */
import { body, errorCode, startTestServer, TestClient, type TestServer } from './harness';

let t: TestServer;
let wsUrl: string;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestServer({ port: 0, live: { pollMs: 50 } });
  wsUrl = await t.listen();
  for (const [name, role] of [['ann', 'editor'], ['vic', 'viewer']] as const) {
    const res = await t.request({ method: 'POST', url: '/api/users', payload: { name, role } });
    expect(res.statusCode).toBe(201);
    tokens[name] = body<{ token: string }>(res).token;
  }
});
afterAll(() => t.dispose());

const as = (name: string): { authorization: string } => ({ authorization: `Bearer ${tokens[name]}` });

async function newText(): Promise<string> {
  return (await t.host.resources.create({ kind: 'text', content: { text: 'hello world' }, operator: 'human:owner' })).id;
}

async function selections(id: string, name?: string): Promise<{ person: string; selection: unknown }[]> {
  const res = await t.request({ method: 'GET', url: `/api/resources/${id}/selections`, ...(name ? { headers: as(name) } : {}) });
  expect(res.statusCode).toBe(200);
  return body<{ selections: { person: string; selection: unknown }[] }>(res).selections;
}

describe('over HTTP', () => {
  it("saves the credential's person's selection, a viewer's too, and lists them; the agent's view shows each", async () => {
    const id = await newText();
    const saved = await t.request({ method: 'PUT', url: `/api/resources/${id}/selection`, headers: as('ann'), payload: { selection: { range: [0, 5] } } });
    expect(saved.statusCode).toBe(200);
    expect(body(saved)).toMatchObject({ resourceId: id, person: 'human:ann', selection: { range: [0, 5] } });
    const byViewer = await t.request({ method: 'PUT', url: `/api/resources/${id}/selection`, headers: as('vic'), payload: { selection: { range: [6, 11] } } });
    expect(byViewer.statusCode).toBe(200);
    // A new selection replaces the person's previous one.
    await t.request({ method: 'PUT', url: `/api/resources/${id}/selection`, headers: as('ann'), payload: { selection: { range: [1, 2] }, operator: 'human:ann' } });
    expect(await selections(id, 'vic')).toEqual([
      expect.objectContaining({ person: 'human:ann', selection: { range: [1, 2] } }),
      expect.objectContaining({ person: 'human:vic', selection: { range: [6, 11] } }),
    ]);
    const view = await t.host.resources.viewFor(id, { operator: 'agent:main', sinceRevision: 0 });
    expect(view.selections.map((s) => [s.person, s.selection])).toEqual([
      ['human:ann', { range: [1, 2] }],
      ['human:vic', { range: [6, 11] }],
    ]);
    // The resource did not change.
    expect((await t.host.resources.get(id)).revision).toBe(0);
  });

  it('a person cannot save a selection as someone else; the owner cannot act as a person or save one for an agent', async () => {
    const id = await newText();
    const asOther = await t.request({ method: 'PUT', url: `/api/resources/${id}/selection`, headers: as('ann'), payload: { selection: { range: [0, 1] }, operator: 'human:vic' } });
    expect([asOther.statusCode, errorCode(asOther)]).toEqual([403, 'forbidden']);
    const ownerAsAnn = await t.request({ method: 'PUT', url: `/api/resources/${id}/selection`, payload: { selection: { range: [0, 1] }, operator: 'human:ann' } });
    expect([ownerAsAnn.statusCode, errorCode(ownerAsAnn)]).toEqual([403, 'forbidden']);
    const ownerAsAgent = await t.request({ method: 'PUT', url: `/api/resources/${id}/selection`, payload: { selection: { range: [0, 1] }, operator: 'agent:bot' } });
    expect([ownerAsAgent.statusCode, errorCode(ownerAsAgent)]).toEqual([400, 'invalid_input']);
    const unauthenticated = await t.request({ method: 'PUT', url: `/api/resources/${id}/selection`, headers: { authorization: 'Bearer nope' }, payload: { selection: 1 } });
    expect(unauthenticated.statusCode).toBe(401);
    expect(await selections(id)).toEqual([]);
    // The owner's own selection is saved as its default operator.
    const owner = await t.request({ method: 'PUT', url: `/api/resources/${id}/selection`, payload: { selection: { range: [0, 1] } } });
    expect(body(owner)).toMatchObject({ person: 'human:user' });
  });

  it('refuses bad input with coded errors and saves nothing', async () => {
    const id = await newText();
    const put = (payload: unknown, resourceId = id) =>
      t.request({ method: 'PUT', url: `/api/resources/${resourceId}/selection`, headers: { ...as('ann'), 'content-type': 'application/json' }, payload: payload as string });
    for (const payload of [{}, { selection: 1, extra: true }, { selection: 1, operator: 'nobody' }, []]) {
      const res = await put(payload);
      expect({ payload, status: res.statusCode, code: errorCode(res) }).toEqual({ payload, status: 400, code: 'invalid_input' });
    }
    const notJson = await put('{"selection": ');
    expect([notJson.statusCode, errorCode(notJson)]).toEqual([400, 'invalid_json']);
    const tooBig = await put({ selection: { text: 'x'.repeat(70 * 1024) } });
    expect([tooBig.statusCode, errorCode(tooBig)]).toEqual([413, 'content_too_large']);
    const missing = await put({ selection: 1 }, 'res_nope');
    expect([missing.statusCode, errorCode(missing)]).toEqual([404, 'not_found']);
    expect(errorCode(await t.request({ method: 'GET', url: '/api/resources/res_nope/selections' }))).toBe('not_found');
    expect(await selections(id)).toEqual([]);
  });
});

describe('over WebSocket', () => {
  it("saves the socket's person's selection (a viewer's too); naming another is forbidden; bad input is refused", async () => {
    const id = await newText();
    const ann = await TestClient.connect(wsUrl, as('ann'));
    const vic = await TestClient.connect(wsUrl, as('vic'));
    try {
      ann.send({ type: 'select', resourceId: id, selection: { range: [0, 5] }, requestId: 's1' });
      expect(await ann.next('selected', 's1')).toMatchObject({ resourceId: id, person: 'human:ann', selection: { range: [0, 5] } });
      vic.send({ type: 'select', resourceId: id, selection: { slide: 2 }, requestId: 's2' });
      expect(await vic.next('selected', 's2')).toMatchObject({ person: 'human:vic', selection: { slide: 2 } });
      ann.send({ type: 'select', resourceId: id, selection: { range: [0, 1] }, operator: 'human:vic', requestId: 's3' });
      expect((await ann.next('error', 's3')).error).toMatchObject({ code: 'forbidden' });
      ann.send({ type: 'select', resourceId: id, requestId: 's4' });
      expect((await ann.next('error', 's4')).error).toMatchObject({ code: 'invalid_input' });
      ann.send({ type: 'select', resourceId: id, selection: 'x'.repeat(70 * 1024), requestId: 's5' });
      expect((await ann.next('error', 's5')).error).toMatchObject({ code: 'content_too_large' });
      ann.send({ type: 'select', resourceId: 'res_nope', selection: 1, requestId: 's6' });
      expect((await ann.next('error', 's6')).error).toMatchObject({ code: 'not_found' });
      expect((await selections(id)).map((s) => [s.person, s.selection])).toEqual([
        ['human:ann', { range: [0, 5] }],
        ['human:vic', { slide: 2 }],
      ]);
    } finally {
      ann.socket.close();
      vic.socket.close();
    }
  });
});
