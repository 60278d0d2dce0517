/**
 * Invariants of imports and live apps over HTTP and the CLI's import:
 * - a file posted to /api/resources/import becomes a resource through the kind's importer; a file
 *   the importer cannot read is `invalid_file` (422) and creates nothing; an unknown format is
 *   `unknown_format` listing the kind's formats; a JSON body is refused;
 * - a kind with `app` is served at /apps/:id/ (newest revision) and /apps/:id/r/:revision/ (fixed):
 *   with credentials they redirect to a keyed address that serves the files without a cookie (the
 *   app runs sandboxed, in an opaque origin), under a CSP only this server may frame; a wrong key is
 *   refused; a path with `..` never leaves the app; a kind without `app` is not served.
 */
import { sitePlugin } from '../support/site-kind';
import { body, errorCode, startTestServer, type TestServer } from './harness';

let t: TestServer;
beforeEach(async () => {
  t = await startTestServer({}, { plugins: [sitePlugin] });
});
afterEach(() => t.dispose());

function postFile(query: string, data: Buffer | string, contentType = 'application/octet-stream') {
  return t.request({ method: 'POST', url: `/api/resources/import?${query}`, payload: data, headers: { 'content-type': contentType } });
}

describe('imports', () => {
  it('creates a resource from a posted file through the kind importer', async () => {
    const response = await postFile('kind=text&fileName=notes.txt&operator=human:ann', Buffer.from('\uFEFFhello\nworld', 'utf8'));
    expect(response.statusCode).toBe(201);
    const created = body<{ id: string; kind: string; content: unknown }>(response);
    expect(created).toMatchObject({ kind: 'text', content: { text: 'hello\nworld' } });
    const history = await t.host.resources.history(created.id);
    expect(history.map((r) => r.operator)).toEqual(['human:ann']);
  });

  it('refuses unreadable files, unknown formats and non-file bodies, creating nothing', async () => {
    const bad = await postFile('kind=text&format=txt', Buffer.from([0xff, 0xfe, 0xfd, 0x00, 0xc3]));
    expect([bad.statusCode, errorCode(bad)]).toEqual([422, 'invalid_file']);
    expect(body<{ error: { message: string } }>(bad).error.message).toMatch(/not UTF-8/);

    const unknown = await postFile('kind=text&fileName=deck.pptx', 'x');
    expect([unknown.statusCode, errorCode(unknown)]).toEqual([404, 'unknown_format']);
    expect(body<{ error: { formats: string[] } }>(unknown).error.formats).toEqual(['txt']);

    const json = await postFile('kind=text&format=txt', JSON.stringify({ text: 'x' }), 'application/json');
    expect([json.statusCode, errorCode(json)]).toEqual([400, 'invalid_input']);
    const noKind = await postFile('format=txt', 'x');
    expect(noKind.statusCode).toBe(400);
    expect(await t.host.resources.list()).toEqual([]);
  });
});

describe('live apps', () => {
  /** Follows the authenticated redirect to the app's keyed address, then fetches it with no credentials at all. */
  async function open(url: string) {
    const redirect = await t.request({ method: 'GET', url });
    expect(redirect.statusCode).toBe(302);
    const location = String(redirect.headers.location);
    return { location, response: await t.request({ method: 'GET', url: location, headers: { authorization: undefined } }) };
  }

  it('serves the newest revision at /apps/:id/ and a fixed one at /apps/:id/r/:revision/, sandboxed', async () => {
    const { id } = await t.host.resources.create({ kind: 'test.site', operator: 'human:ann' });
    await t.host.resources.commit(id, { baseRevision: 0, op: { path: 'index.html', text: '<h1>second</h1>' }, operator: 'agent:a1' });
    await t.host.resources.commit(id, { baseRevision: 1, op: { path: 'js/app.js', text: 'go()' }, operator: 'agent:a1' });

    const latest = await open(`/apps/${id}/`);
    expect(latest.location).toMatch(new RegExp(`^/apps/${id}/@[A-Za-z0-9_-]{32}/$`));
    expect([latest.response.statusCode, latest.response.body, latest.response.headers['x-cowork-revision']]).toEqual([200, '<h1>second</h1>', '2']);
    expect(latest.response.headers['content-security-policy']).toBe("sandbox allow-scripts allow-forms allow-modals; frame-ancestors 'self'");
    expect(latest.response.headers['x-frame-options']).toBe('SAMEORIGIN');

    const old = await open(`/apps/${id}/r/0/`);
    expect(old.location).toBe(`${latest.location}r/0/`);
    expect([old.response.statusCode, old.response.body]).toEqual([200, '<h1>first</h1>']);
    // The app's own requests (relative URLs) resolve under the key and load without a cookie.
    const script = await t.request({ method: 'GET', url: `${latest.location}r/2/js/app.js`, headers: { authorization: undefined } });
    expect([script.statusCode, script.headers['content-type'], script.body]).toEqual([200, 'text/javascript', 'go()']);
    expect((await open(`/apps/${id}`)).location).toBe(latest.location);
    // The page's own routes keep their strict headers.
    const api = await t.request({ method: 'GET', url: `/api/resources/${id}` });
    expect(api.headers['x-frame-options']).toBe('DENY');
  });

  it('answers 404 for missing files and revisions, refuses escapes and wrong keys, and serves no other kind', async () => {
    const { id } = await t.host.resources.create({ kind: 'test.site', operator: 'human:ann' });
    const text = await t.host.resources.create({ kind: 'text', operator: 'human:ann' });
    const keyed = (await open(`/apps/${id}/`)).location;
    const textKeyed = (await open(`/apps/${text.id}/`)).location;
    const cases = [
      [`${keyed}missing.html`, 404, 'not_found'],
      [`${keyed}r/9/`, 404, 'not_found'],
      [`${keyed}a/..%2f..%2fsecret`, 400, 'invalid_input'],
      [`${textKeyed}`, 404, 'unknown_format'],
      [`/apps/${id}/@${'A'.repeat(32)}/`, 401, 'unauthorized'],
      [textKeyed.replace(text.id, id), 401, 'unauthorized'],
    ] as const;
    for (const [url, status, code] of cases) {
      const response = await t.request({ method: 'GET', url, headers: { authorization: undefined } });
      expect([url, response.statusCode, errorCode(response)]).toEqual([url, status, code]);
    }
    const missing = await t.request({ method: 'GET', url: '/apps/res_missing/' });
    expect([missing.statusCode, errorCode(missing)]).toEqual([404, 'not_found']);
  });

  it('redirects any path, however encoded, to its keyed address; a path that cannot be a file is a 4xx in the error shape', async () => {
    const { id } = await t.host.resources.create({ kind: 'test.site', operator: 'human:ann' });
    await t.host.resources.commit(id, { baseRevision: 0, op: { path: 'é ✓.html', text: 'accents' }, operator: 'human:ann' });
    const served = await open(`/apps/${id}/%C3%A9%20%E2%9C%93.html`);
    expect([served.response.statusCode, served.response.body]).toEqual([200, 'accents']);
    for (const path of ['%00', 'a%0d%0aSet-Cookie:%20x=1', '%0a', '%E2%9C%93', 'a%2Fb', '%C3%A9/x', 'caf%C3%A9%00.html', '%FF', '%ZZ', '..%5c..%5csecret']) {
      const redirect = await t.request({ method: 'GET', url: `/apps/${id}/${path}` });
      expect([path, redirect.statusCode < 500]).toEqual([path, true]);
      if (redirect.statusCode >= 400) {
        expect([path, body<{ error: { code: string; message: string; hint: string } }>(redirect).error]).toEqual([path, expect.objectContaining({ code: expect.any(String), message: expect.any(String), hint: expect.any(String) })]);
        continue;
      }
      const location = String(redirect.headers.location);
      expect(location).toMatch(/^[\x21-\x7e]+$/); // printable ASCII only: nothing can split or inject a header
      const file = await t.request({ method: 'GET', url: location, headers: { authorization: undefined } });
      expect([path, file.statusCode]).toEqual([path, expect.any(Number)]);
      expect(file.statusCode).toBeGreaterThanOrEqual(400);
      expect(file.statusCode).toBeLessThan(500);
      expect(errorCode(file)).toMatch(/^(not_found|invalid_input)$/);
    }
  });

  it('needs credentials to find the app', async () => {
    const { id } = await t.host.resources.create({ kind: 'test.site', operator: 'human:ann' });
    const response = await t.request({ method: 'GET', url: `/apps/${id}/`, headers: { authorization: undefined } });
    expect(response.statusCode).toBe(401);
  });
});
