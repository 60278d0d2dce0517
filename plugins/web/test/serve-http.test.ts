// Invariant: the host's server serves a web.app revision live through the kind's `app.file`: the
// entry at /apps/:id/ (the newest revision) and each file at /apps/:id/r/:revision/<path>, with
// the media type from its extension, and a 404 for a file the app does not have.
import { createServer, type CoworkServer } from '@cowork/host/embed';
import { openTempHost, type TempHost } from '@cowork/host/testkit';
import { plugin, sampleApp } from '../src';

const TOKEN = 'web-plugin-test-token-0123456789';

describe('a web.app served by the host', () => {
  let host: TempHost;
  let server: CoworkServer;
  let base: string;

  beforeAll(async () => {
    host = await openTempHost({ plugins: [plugin], prefix: 'cowork-web-serve-' });
    server = await createServer({ host, token: TOKEN, port: 0, onError: () => undefined });
    base = (await server.listen()).url;
  });

  afterAll(async () => {
    await server.close();
    await host.dispose();
  });

  const get = (path: string) => fetch(`${base}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } });

  it('serves the newest revision at /apps/:id/ and a fixed one at /apps/:id/r/:revision/', async () => {
    const planner = sampleApp('packing-planner');
    const r = await host.resources.create({ kind: 'web.app', content: planner, operator: 'human:ann' });
    await host.resources.commit(r.id, { baseRevision: 0, op: { type: 'patch_file', path: 'index.html', find: '<h1>Packing planner</h1>', replace: '<h1>Trip planner</h1>' }, operator: 'agent:a1' });

    const latest = await get(`/apps/${r.id}/`);
    expect(latest.status).toBe(200);
    expect(latest.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await latest.text()).toContain('<h1>Trip planner</h1>');

    const first = await get(`/apps/${r.id}/r/0/`);
    expect(await first.text()).toBe((planner.files['index.html'] as { text: string }).text);
    const script = await get(`/apps/${r.id}/r/0/app.js`);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await script.text()).toBe((planner.files['app.js'] as { text: string }).text);
    expect((await get(`/apps/${r.id}/r/1/missing.js`)).status).toBe(404);
  });
});
