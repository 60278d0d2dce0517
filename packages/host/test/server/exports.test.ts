/**
 * Invariant: `GET /api/resources/:id/export/:format` answers the kind exporter's bytes with its
 * media type and a download name, for the newest or a given revision; an unknown format is 404
 * `unknown_format`; `/exports` lists the formats; the routes need the token like every other.
 */
import { get as httpGet } from 'node:http';
import { defineKind, definePlugin } from '../../src/plugins/define-plugin';
import { body, errorCode, startTestServer, TOKEN, type TestServer } from './harness';

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

it('answers an export a view frames inline, framable by this server only and sandboxed without scripts; a download stays unframable', async () => {
  const { id } = body<{ id: string }>(await t.request({ method: 'POST', url: '/api/resources', payload: { kind: 'text', content: { text: '<b>hi</b>' }, operator: 'human:ann' } }));
  const framed = await t.request({ method: 'GET', url: `/api/resources/${id}/export/txt?revision=0&inline=true` });
  expect(framed.statusCode).toBe(200);
  expect(framed.headers['content-disposition']).toBe(`inline; filename="${id}-r0.txt"`);
  expect(framed.headers['x-frame-options']).toBe('SAMEORIGIN');
  const policy = String(framed.headers['content-security-policy']);
  expect(policy).toMatch(/(^|; )sandbox(;|$)/); // no allow-scripts, no allow-same-origin
  expect(policy).toContain("frame-ancestors 'self'");
  expect(policy).toContain("default-src 'none'");

  const download = await t.request({ method: 'GET', url: `/api/resources/${id}/export/txt?inline=false` });
  expect(download.headers['content-disposition']).toBe(`attachment; filename="${id}-r0.txt"`);
  expect(download.headers['x-frame-options']).toBe('DENY');
  expect(String(download.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
  const bad = await t.request({ method: 'GET', url: `/api/resources/${id}/export/txt?inline=perhaps` });
  expect(bad.statusCode).toBe(400);
  expect(bad.headers['x-frame-options']).toBe('DENY');
});

describe('a client that leaves before its export is ready', () => {
  let aborted: Promise<string>;
  let started: Promise<void>;
  let slow: TestServer;
  beforeEach(async () => {
    let seen!: (reason: string) => void;
    let begun!: () => void;
    aborted = new Promise((resolve) => (seen = resolve));
    started = new Promise((resolve) => (begun = resolve));
    const waitsForAbort = defineKind<{ n: number }, { type: 'noop' }>({
      name: 'test.slow',
      description: 'Exports only when told to stop',
      revisionSemantics: 'host',
      contentSchema: { type: 'object' },
      opSchema: { type: 'object' },
      initialContent: () => ({ n: 0 }),
      applyOp: (content) => content,
      summarize: () => 'slow',
      diff: () => '',
      exports: {
        bin: {
          mediaType: 'application/octet-stream',
          extension: 'bin',
          export: (_content, context) =>
            new Promise((_resolve, reject) => {
              begun();
              context.signal.addEventListener('abort', () => {
                seen(String((context.signal.reason as Error).message));
                reject(context.signal.reason);
              });
            }),
        },
      },
    });
    slow = await startTestServer({ port: 0 }, { plugins: [definePlugin({ name: 'slow', version: '1.0.0', kinds: [waitsForAbort] })] });
  });
  afterEach(() => slow.dispose());

  it('aborts the export, so its work stops and it leaves any queue', async () => {
    const { id } = await slow.host.resources.create({ kind: 'test.slow', operator: 'human:ann' });
    const url = await slow.listenHttp();
    const request = httpGet(`${url}/api/resources/${id}/export/bin`, { headers: { authorization: `Bearer ${TOKEN}` } });
    request.on('error', () => undefined);
    await started;
    request.destroy();
    expect(await aborted).toMatch(/client closed the connection/);
  });
});
