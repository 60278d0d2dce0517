/**
 * Invariants of imports and live apps over HTTP and the CLI's import:
 * - a file posted to /api/resources/import becomes a resource through the kind's importer; a file
 *   the importer cannot read is `invalid_file` (422) and creates nothing; an unknown format is
 *   `unknown_format` listing the kind's formats; a JSON body is refused;
 * - a kind with `app` is served at /apps/:id/ (newest revision) and /apps/:id/r/:revision/ (fixed),
 *   with a sandboxing CSP that only this server may frame; a path with `..` never leaves the app;
 *   a kind without `app` is not served.
 */
import { definePlugin, defineKind } from '../../src/plugins/define-plugin';
import { body, errorCode, startTestServer, type TestServer } from './harness';

type Site = { files: Record<string, string> };

const siteKind = defineKind<Site, { path: string; text: string }>({
  name: 'test.site',
  description: 'A few text files served as an app',
  revisionSemantics: 'host',
  contentSchema: { type: 'object', properties: { files: { type: 'object', additionalProperties: { type: 'string' } } }, required: ['files'] },
  opSchema: { type: 'object', properties: { path: { type: 'string' }, text: { type: 'string' } }, required: ['path', 'text'] },
  initialContent: () => ({ files: { 'index.html': '<h1>first</h1>' } }),
  applyOp: (content, op) => ({ files: { ...content.files, [op.path]: op.text } }),
  summarize: (content) => Object.keys(content.files).join(', '),
  diff: () => 'changed',
  app: {
    file: (content, path) => {
      const text = content.files[path];
      return text === undefined ? undefined : { data: text, mediaType: path.endsWith('.js') ? 'text/javascript' : 'text/html; charset=utf-8' };
    },
  },
});

let t: TestServer;
beforeEach(async () => {
  t = await startTestServer({}, { plugins: [definePlugin({ name: 'site', version: '1.0.0', kinds: [siteKind] })] });
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
  it('serves the newest revision at /apps/:id/ and a fixed one at /apps/:id/r/:revision/, sandboxed', async () => {
    const { id } = await t.host.resources.create({ kind: 'test.site', operator: 'human:ann' });
    await t.host.resources.commit(id, { baseRevision: 0, op: { path: 'index.html', text: '<h1>second</h1>' }, operator: 'agent:a1' });
    await t.host.resources.commit(id, { baseRevision: 1, op: { path: 'js/app.js', text: 'go()' }, operator: 'agent:a1' });

    const latest = await t.request({ method: 'GET', url: `/apps/${id}/` });
    expect([latest.statusCode, latest.body, latest.headers['x-cowork-revision']]).toEqual([200, '<h1>second</h1>', '2']);
    expect(latest.headers['content-security-policy']).toBe("sandbox allow-scripts allow-forms allow-modals; frame-ancestors 'self'");
    expect(latest.headers['x-frame-options']).toBe('SAMEORIGIN');

    const old = await t.request({ method: 'GET', url: `/apps/${id}/r/0/` });
    expect([old.statusCode, old.body]).toEqual([200, '<h1>first</h1>']);
    const script = await t.request({ method: 'GET', url: `/apps/${id}/r/2/js/app.js` });
    expect([script.statusCode, script.headers['content-type'], script.body]).toEqual([200, 'text/javascript', 'go()']);

    const redirect = await t.request({ method: 'GET', url: `/apps/${id}` });
    expect([redirect.statusCode, redirect.headers.location]).toEqual([302, `/apps/${id}/`]);
    // The page's own routes keep their strict headers.
    const api = await t.request({ method: 'GET', url: `/api/resources/${id}` });
    expect(api.headers['x-frame-options']).toBe('DENY');
  });

  it('answers 404 for missing files and revisions, refuses escapes, and serves no other kind', async () => {
    const { id } = await t.host.resources.create({ kind: 'test.site', operator: 'human:ann' });
    const text = await t.host.resources.create({ kind: 'text', operator: 'human:ann' });
    const cases = [
      [`/apps/${id}/missing.html`, 404, 'not_found'],
      [`/apps/${id}/r/9/`, 404, 'not_found'],
      [`/apps/${id}/a/..%2f..%2fsecret`, 400, 'invalid_input'],
      [`/apps/${text.id}/`, 404, 'unknown_format'],
      [`/apps/res_missing/`, 404, 'not_found'],
    ] as const;
    for (const [url, status, code] of cases) {
      const response = await t.request({ method: 'GET', url });
      expect([url, response.statusCode, errorCode(response)]).toEqual([url, status, code]);
    }
  });

  it('needs credentials like every other route', async () => {
    const { id } = await t.host.resources.create({ kind: 'test.site', operator: 'human:ann' });
    const response = await t.request({ method: 'GET', url: `/apps/${id}/`, headers: { authorization: undefined } });
    expect(response.statusCode).toBe(401);
  });
});
