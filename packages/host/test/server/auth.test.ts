/**
 * Invariant: nothing but the placeholder page and the sign-in is served without credentials, and
 * nothing at all is served to a request whose Host is not the server's or whose Origin is another
 * site, WebSocket upgrades included (DNS-rebinding protection). A browser signs in without the
 * token ever being in a URL: a session cookie that does not contain the token, and single-use,
 * short-lived WebSocket tickets.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { body, errorCode, startTestServer, TestClient, TOKEN, upgradeStatus, type TestServer } from './harness';

describe('HTTP', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.dispose());

  it('401 without a token or with a wrong one', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`, 'Bearer']) {
      const res = await t.request({ method: 'GET', url: '/api/resources', headers: { authorization } });
      expect({ authorization, status: res.statusCode, code: errorCode(res) }).toEqual({ authorization, status: 401, code: 'unauthorized' });
    }
    // Unknown routes too: without credentials nobody learns which routes exist.
    const unknown = await t.request({ method: 'GET', url: '/api/secret-route', headers: { authorization: undefined } });
    expect(unknown.statusCode).toBe(401);
  });

  it('403 for a Host the server does not answer to, before looking at credentials', async () => {
    for (const host of ['evil.example', 'evil.example:7420', '127.0.0.1:7421', 'localhost.evil.example:7420', '']) {
      const res = await t.request({ method: 'GET', url: '/api/health', headers: { host } });
      expect({ host, status: res.statusCode, code: errorCode(res) }).toEqual({ host, status: 403, code: 'forbidden_origin' });
    }
    expect((await t.request({ method: 'GET', url: '/', headers: { host: 'evil.example', authorization: undefined } })).statusCode).toBe(403);
    for (const host of ['localhost:7420', 'LOCALHOST:7420', '[::1]:7420', '127.0.0.1:7420']) {
      expect((await t.request({ method: 'GET', url: '/api/health', headers: { host } })).statusCode).toBe(200);
    }
  });

  it('403 for a cross-site Origin, even with the right token', async () => {
    for (const origin of ['http://evil.example', 'http://127.0.0.1:7421', 'https://127.0.0.1:7420', 'null']) {
      const res = await t.request({ method: 'POST', url: '/api/resources', payload: { kind: 'text' }, headers: { origin } });
      expect({ origin, status: res.statusCode, code: errorCode(res) }).toEqual({ origin, status: 403, code: 'forbidden_origin' });
    }
    expect(body(await t.request({ method: 'GET', url: '/api/resources' })).resources).toEqual([]);
    const same = await t.request({ method: 'GET', url: '/api/health', headers: { origin: 'http://127.0.0.1:7420' } });
    expect(same.statusCode).toBe(200);
  });

  it('signs a browser in with a cookie that is not the token, and out again', async () => {
    const wrong = await t.request({ method: 'POST', url: '/api/session', payload: { token: 'nope' }, headers: { authorization: undefined } });
    expect([wrong.statusCode, errorCode(wrong)]).toEqual([401, 'unauthorized']);

    const signIn = await t.request({ method: 'POST', url: '/api/session', payload: { token: TOKEN }, headers: { authorization: undefined, origin: 'http://127.0.0.1:7420' } });
    expect(signIn.statusCode).toBe(204);
    const setCookie = String(signIn.headers['set-cookie']);
    expect(setCookie).toMatch(/^cowork_session=[\w-]{40,}; HttpOnly; SameSite=Strict; Path=\/; Max-Age=\d+$/);
    expect(setCookie).not.toContain(TOKEN);
    const cookie = setCookie.split(';')[0]!;

    const withCookie = await t.request({ method: 'GET', url: '/api/health', headers: { authorization: undefined, cookie } });
    expect(withCookie.statusCode).toBe(200);
    const forged = await t.request({ method: 'GET', url: '/api/health', headers: { authorization: undefined, cookie: 'cowork_session=forged' } });
    expect(forged.statusCode).toBe(401);

    expect((await t.request({ method: 'DELETE', url: '/api/session', headers: { authorization: undefined, cookie } })).statusCode).toBe(204);
    expect((await t.request({ method: 'GET', url: '/api/health', headers: { authorization: undefined, cookie } })).statusCode).toBe(401);
  });
});

describe('WebSocket upgrade', () => {
  let t: TestServer;
  let url: string;
  let clock = 0;
  beforeAll(async () => {
    t = await startTestServer({ port: 0, now: () => Date.now() + clock });
    url = await t.listen();
  });
  afterAll(() => t.dispose());

  const connections = (): Promise<number> =>
    new Promise((done, fail) => t.server.app.server.getConnections((error, count) => (error ? fail(error) : done(count))));

  it('is authenticated on the upgrade itself: no credentials, a wrong token, a bad Host or Origin are refused', async () => {
    const port = new URL(url).port;
    expect(await upgradeStatus(url, {})).toBe(401);
    expect(await upgradeStatus(url, { authorization: 'Bearer wrong-token-0123456789' })).toBe(401);
    expect(await upgradeStatus(url, { authorization: `Bearer ${TOKEN}`, host: `evil.example:${port}` })).toBe(403);
    expect(await upgradeStatus(url, { authorization: `Bearer ${TOKEN}`, origin: 'http://evil.example' })).toBe(403);
    expect(await upgradeStatus(`${url}?ticket=made-up`, {})).toBe(401);
    expect(await upgradeStatus(url, { authorization: `Bearer ${TOKEN}`, origin: `http://127.0.0.1:${port}` })).toBe(101);
    // A refused upgrade is answered and its socket closed, not left holding a connection.
    await until(async () => (await connections()) === 0);
  });

  it('accepts a ticket once, and not after it expires', async () => {
    const issue = async (): Promise<string> => {
      const res = await t.request({ method: 'POST', url: '/api/ws-tickets' });
      expect(res.statusCode).toBe(201);
      return body<{ ticket: string }>(res).ticket;
    };
    const unauthenticated = await t.request({ method: 'POST', url: '/api/ws-tickets', headers: { authorization: undefined } });
    expect(unauthenticated.statusCode).toBe(401);

    const ticket = await issue();
    const client = await TestClient.connect(`${url}?ticket=${ticket}`, {});
    await client.close();
    expect(await upgradeStatus(`${url}?ticket=${ticket}`, {})).toBe(401);

    const late = await issue();
    clock += 31_000;
    try {
      expect(await upgradeStatus(`${url}?ticket=${late}`, {})).toBe(401);
    } finally {
      clock = 0;
    }
    // A ticket is only for the WebSocket: HTTP routes do not take one.
    const other = await issue();
    const http = await t.request({ method: 'GET', url: `/api/health?ticket=${other}`, headers: { authorization: undefined } });
    expect(http.statusCode).toBe(401);
  });

  it('accepts the session cookie on the upgrade', async () => {
    const signIn = await t.request({ method: 'POST', url: '/api/session', payload: { token: TOKEN }, headers: { authorization: undefined } });
    const cookie = String(signIn.headers['set-cookie']).split(';')[0]!;
    expect(await upgradeStatus(url, { cookie })).toBe(101);
  });
});

/** Resolves once `condition` holds, checking every few milliseconds for up to 5 s. */
async function until(condition: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await condition()) return;
    await delay(10);
  }
  throw new Error('condition never held');
}
