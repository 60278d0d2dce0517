/**
 * Invariant: `GET /api/resources/:id/export/:format` answers the kind exporter's bytes with its
 * media type and a download name, for the newest or a given revision; an unknown format is 404
 * `unknown_format`; `/exports` lists the formats; the routes need the token like every other.
 */
import { body, errorCode, startTestServer, type TestServer } from './harness';

let t: TestServer;
beforeEach(async () => {
  t = await startTestServer();
});
afterEach(() => t.dispose());

it('exports a text resource and refuses unknown formats', async () => {
  const created = await t.request({ method: 'POST', url: '/api/resources', payload: { kind: 'text', content: { text: 'v0' }, operator: 'human:ann' } });
  const { id } = body<{ id: string }>(created);
  await t.request({ method: 'POST', url: `/api/resources/${id}/commits`, payload: { baseRevision: 0, op: { type: 'set', text: 'v1' }, operator: 'human:ann' } });

  const now = await t.request({ method: 'GET', url: `/api/resources/${id}/export/txt` });
  expect(now.statusCode).toBe(200);
  expect(now.body).toBe('v1');
  expect(now.headers).toMatchObject({ 'content-type': 'text/plain; charset=utf-8', 'content-disposition': `attachment; filename="${id}-r1.txt"`, 'x-cowork-revision': '1' });
  const old = await t.request({ method: 'GET', url: `/api/resources/${id}/export/txt?revision=0` });
  expect(old.body).toBe('v0');

  const unknown = await t.request({ method: 'GET', url: `/api/resources/${id}/export/pptx` });
  expect(unknown.statusCode).toBe(404);
  expect(errorCode(unknown)).toBe('unknown_format');
  expect((await t.request({ method: 'GET', url: `/api/resources/${id}/export/txt?revision=9` })).statusCode).toBe(404);
  expect((await t.request({ method: 'GET', url: `/api/resources/${id}/export/txt?revision=-1` })).statusCode).toBe(400);
  expect(body(await t.request({ method: 'GET', url: `/api/resources/${id}/exports` }))).toEqual({
    formats: [{ format: 'txt', mediaType: 'text/plain; charset=utf-8', extension: 'txt', description: 'The text as a UTF-8 file.' }],
  });
  expect((await t.request({ method: 'GET', url: `/api/resources/${id}/export/txt`, headers: { authorization: undefined } })).statusCode).toBe(401);
});
