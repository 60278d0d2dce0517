/**
 * Invariant: the operator of every write is taken from the credential. The server token is the
 * owner's; a person added by the owner acts only as `human:<name>` over HTTP, WebSocket and MCP (a
 * request naming anyone else is `forbidden` and writes nothing); a viewer reads and subscribes but
 * cannot write; a revoked token is refused at once, its sessions and open sockets included; only
 * hashes of people's tokens are stored.
 */
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UserDirectory } from '../../src/identity/user-directory';
import { call, connectHttp } from '../mcp-server/mcp-client-helpers';
import { body, errorCode, startTestServer, TestClient, type TestServer } from './harness';

let t: TestServer;
let wsUrl: string;
let httpUrl: string;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestServer({ port: 0, live: { pollMs: 50 } });
  wsUrl = await t.listen();
  httpUrl = wsUrl.replace(/^ws/, 'http').replace(/\/ws$/, '');
  for (const [name, role] of [['ann', 'editor'], ['vic', 'viewer'], ['rev', 'editor'], ['cli', 'editor']] as const) {
    const res = await t.request({ method: 'POST', url: '/api/users', payload: { name, role } });
    expect(res.statusCode).toBe(201);
    const added = body<{ user: { operator: string; role: string }; token: string }>(res);
    expect(added.user).toMatchObject({ operator: `human:${name}`, role });
    tokens[name] = added.token;
  }
});
afterAll(() => t.dispose());

const as = (name: string): { authorization: string } => ({ authorization: `Bearer ${tokens[name]}` });

async function newText(): Promise<string> {
  return (await t.host.resources.create({ kind: 'text', operator: 'human:owner' })).id;
}

async function headOf(id: string): Promise<{ revision: number; operators: string[] }> {
  const history = await t.host.resources.history(id);
  return { revision: (await t.host.resources.get(id)).revision, operators: history.map((r) => r.operator) };
}

describe('people and their tokens', () => {
  it('only the owner adds and revokes people; names and roles are checked; tokens are never listed', async () => {
    const byPerson = await t.request({ method: 'POST', url: '/api/users', payload: { name: 'mallory' }, headers: as('ann') });
    expect([byPerson.statusCode, errorCode(byPerson)]).toEqual([403, 'forbidden']);
    const revokeByPerson = await t.request({ method: 'DELETE', url: '/api/users/vic', headers: as('ann') });
    expect([revokeByPerson.statusCode, errorCode(revokeByPerson)]).toEqual([403, 'forbidden']);
    for (const payload of [{ name: 'ann' }, { name: 'owner' }, { name: 'bad name' }, { name: '-x' }, { name: 'x', role: 'admin' }]) {
      const res = await t.request({ method: 'POST', url: '/api/users', payload });
      expect({ payload, code: errorCode(res) }).toEqual({ payload, code: payload.name === 'ann' ? 'already_exists' : 'invalid_input' });
    }
    const listed = await t.request({ method: 'GET', url: '/api/users', headers: as('vic') });
    expect(body<{ users: { name: string }[] }>(listed).users.map((u) => u.name)).toEqual(['ann', 'cli', 'rev', 'vic']);
    expect(listed.body).not.toContain(tokens.ann);
    expect(listed.body).not.toMatch(/hash/i);
  });

  it('stores only a hash of each token', () => {
    const db = new Database(join(t.host.workspaceDir, 'cowork.db'), { readonly: true });
    try {
      const rows = db.prepare('SELECT * FROM users').all() as Record<string, unknown>[];
      expect(rows).toHaveLength(4);
      const everything = JSON.stringify(rows);
      for (const token of Object.values(tokens)) expect(everything).not.toContain(token);
    } finally {
      db.close();
    }
    const file = readFileSync(join(t.host.workspaceDir, 'cowork.db')).toString('latin1');
    for (const token of Object.values(tokens)) expect(file).not.toContain(token);
  });

  it('says who a credential is', async () => {
    expect(body(await t.request({ method: 'GET', url: '/api/me', headers: as('ann') }))).toEqual({ kind: 'person', operator: 'human:ann', role: 'editor' });
    expect(body(await t.request({ method: 'GET', url: '/api/me', headers: as('vic') }))).toEqual({ kind: 'person', operator: 'human:vic', role: 'viewer' });
    expect(body(await t.request({ method: 'GET', url: '/api/me' }))).toMatchObject({ kind: 'owner' });
  });
});

describe('over HTTP', () => {
  it("a person's writes are theirs, and naming anyone else is forbidden and writes nothing", async () => {
    const id = await newText();
    const mine = await t.request({ method: 'POST', url: `/api/resources/${id}/commits`, payload: { baseRevision: 0, op: { type: 'append', text: 'a' } }, headers: as('ann') });
    expect(mine.statusCode).toBe(200);
    const own = await t.request({ method: 'POST', url: `/api/resources/${id}/commits`, payload: { baseRevision: 1, op: { type: 'append', text: 'b' }, operator: 'human:ann' }, headers: as('ann') });
    expect(own.statusCode).toBe(200);
    for (const operator of ['human:bob', 'human:vic', 'agent:main', 'human:owner', 'human:ann2']) {
      const res = await t.request({ method: 'POST', url: `/api/resources/${id}/commits`, payload: { baseRevision: 2, op: { type: 'append', text: 'x' }, operator }, headers: as('ann') });
      expect({ operator, status: res.statusCode, code: errorCode(res) }).toEqual({ operator, status: 403, code: 'forbidden' });
      const restore = await t.request({ method: 'POST', url: `/api/resources/${id}/restore`, payload: { revision: 0, baseRevision: 2, operator }, headers: as('ann') });
      expect(errorCode(restore)).toBe('forbidden');
      const created = await t.request({ method: 'POST', url: '/api/resources', payload: { kind: 'text', operator }, headers: as('ann') });
      expect(errorCode(created)).toBe('forbidden');
    }
    expect(await headOf(id)).toEqual({ revision: 2, operators: ['human:owner', 'human:ann', 'human:ann'] });
    // Nothing was kept as a candidate either: a refused request is not a conflict.
    expect(await t.host.resources.listCandidates(id)).toEqual([]);
    const created = await t.request({ method: 'POST', url: '/api/resources', payload: { kind: 'text' }, headers: as('ann') });
    expect((await t.host.resources.history(body<{ id: string }>(created).id)).map((r) => r.operator)).toEqual(['human:ann']);
  });

  it('accepting or rejecting a candidate is recorded as the person who did it', async () => {
    const id = await newText();
    const draft = await t.host.resources.createDraft(id, 'agent:helper');
    await t.host.resources.editDraft(draft.id, { type: 'append', text: 'proposal' }, 'agent:helper');
    const first = await t.host.resources.proposeDraft(draft.id, 'agent:helper');
    const refused = await t.request({ method: 'POST', url: `/api/candidates/${first.id}/accept`, payload: { operator: 'human:bob' }, headers: as('ann') });
    expect(errorCode(refused)).toBe('forbidden');
    expect((await t.host.resources.getCandidate(first.id)).status).toBe('open');
    const rejected = await t.request({ method: 'POST', url: `/api/candidates/${first.id}/reject`, payload: {}, headers: as('ann') });
    expect(body<{ candidate: { resolvedBy: string } }>(rejected).candidate.resolvedBy).toBe('human:ann');
  });

  it('the owner names whom it acts for (its integrations run agents), but never a person it added', async () => {
    const id = await newText();
    const res = await t.request({ method: 'POST', url: `/api/resources/${id}/commits`, payload: { baseRevision: 0, op: { type: 'append', text: 'a' }, operator: 'agent:blender' } });
    expect(res.statusCode).toBe(200);
    for (const operator of ['human:ann', 'human:vic', 'human:rev']) {
      const asPerson = await t.request({ method: 'POST', url: `/api/resources/${id}/commits`, payload: { baseRevision: 1, op: { type: 'append', text: 'x' }, operator } });
      expect({ operator, code: errorCode(asPerson) }).toEqual({ operator, code: 'forbidden' });
    }
    expect((await headOf(id)).operators).toEqual(['human:owner', 'agent:blender']);
  });

  it('a viewer reads but every write is forbidden and writes nothing', async () => {
    const id = await newText();
    expect((await t.request({ method: 'GET', url: `/api/resources/${id}`, headers: as('vic') })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: `/api/resources/${id}/revisions`, headers: as('vic') })).statusCode).toBe(200);
    const writes = [
      { method: 'POST', url: `/api/resources/${id}/commits`, payload: { baseRevision: 0, op: { type: 'append', text: 'v' } } },
      { method: 'POST', url: `/api/resources/${id}/restore`, payload: { revision: 0, baseRevision: 0 } },
      { method: 'POST', url: '/api/resources', payload: { kind: 'text' } },
      { method: 'POST', url: '/api/tasks', payload: { request: 'do it' } },
      { method: 'POST', url: '/api/users', payload: { name: 'zed' } },
      { method: 'DELETE', url: '/api/users/ann' },
      { method: 'POST', url: '/api/mcp/servers', payload: { name: 'x', server: { command: 'true' } } },
    ] as const;
    for (const write of writes) {
      const res = await t.request({ ...write, headers: as('vic') });
      expect({ url: write.url, status: res.statusCode, code: errorCode(res) }).toEqual({ url: write.url, status: 403, code: 'forbidden' });
    }
    expect(await headOf(id)).toEqual({ revision: 0, operators: ['human:owner'] });
    expect((await t.host.resources.list()).length).toBeGreaterThan(0);
  });

  it("signs a person in with their own token, and the session acts as them", async () => {
    const signIn = await t.request({ method: 'POST', url: '/api/session', payload: { token: tokens.ann }, headers: { authorization: undefined } });
    expect(signIn.statusCode).toBe(204);
    const cookie = String(signIn.headers['set-cookie']).split(';')[0]!;
    expect(cookie).not.toContain(tokens.ann);
    const me = await t.request({ method: 'GET', url: '/api/me', headers: { authorization: undefined, cookie } });
    expect(body(me)).toMatchObject({ operator: 'human:ann' });
    const id = await newText();
    const impersonating = await t.request({ method: 'POST', url: `/api/resources/${id}/commits`, payload: { baseRevision: 0, op: { type: 'append', text: 'c' }, operator: 'human:owner' }, headers: { authorization: undefined, cookie } });
    expect(errorCode(impersonating)).toBe('forbidden');
    const wrong = await t.request({ method: 'POST', url: '/api/session', payload: { token: `${tokens.ann}x` }, headers: { authorization: undefined } });
    expect(errorCode(wrong)).toBe('unauthorized');
  });
});

describe('over WebSocket', () => {
  it("a person's commits are theirs; naming another operator is forbidden; a viewer subscribes but cannot commit", async () => {
    const id = await newText();
    const ann = await TestClient.connect(wsUrl, as('ann'));
    const vic = await TestClient.connect(wsUrl, as('vic'));
    try {
      vic.send({ type: 'subscribe', resourceId: id, requestId: 's' });
      await vic.next('subscribed', 's');
      ann.send({ type: 'commit', resourceId: id, baseRevision: 0, op: { type: 'append', text: 'a' }, requestId: 'c1' });
      await ann.next('committed', 'c1');
      ann.send({ type: 'commit', resourceId: id, baseRevision: 1, op: { type: 'append', text: 'b' }, operator: 'human:vic', requestId: 'c2' });
      expect((await ann.next('error', 'c2')).error).toMatchObject({ code: 'forbidden' });
      vic.send({ type: 'commit', resourceId: id, baseRevision: 1, op: { type: 'append', text: 'v' }, requestId: 'c3' });
      expect((await vic.next('error', 'c3')).error).toMatchObject({ code: 'forbidden' });
      // The viewer saw ann's revision live, as ann.
      await vic.until((ms) => ms.some((m) => m.type === 'revision' && m.revision === 1), 'revision 1');
      expect(vic.messages.find((m) => m.type === 'revision')).toMatchObject({ operator: 'human:ann' });
      expect(await headOf(id)).toEqual({ revision: 1, operators: ['human:owner', 'human:ann'] });
      const owner = await TestClient.connect(wsUrl);
      owner.send({ type: 'commit', resourceId: id, baseRevision: 1, op: { type: 'append', text: 'o' }, operator: 'human:ann', requestId: 'o1' });
      expect((await owner.next('error', 'o1')).error).toMatchObject({ code: 'forbidden' });
      owner.socket.close();
    } finally {
      ann.socket.close();
      vic.socket.close();
    }
  });
});

describe('over MCP', () => {
  let ann: Client;
  let vic: Client;
  beforeAll(async () => {
    ann = await connectHttp(httpUrl, tokens.ann);
    vic = await connectHttp(httpUrl, tokens.vic);
  });
  afterAll(async () => {
    await ann.close();
    await vic.close();
  });

  it("a person's tool calls act as them; naming another operator or writing as a viewer is refused", async () => {
    const id = await newText();
    expect(await call(ann, 'commit_resource', { resourceId: id, baseRevision: 0, op: { type: 'append', text: 'a' } })).toEqual({ isError: false, body: { resourceId: id, revision: 1 } });
    const impersonating = await call(ann, 'commit_resource', { resourceId: id, baseRevision: 1, op: { type: 'append', text: 'b' }, operator: 'human:bob' });
    expect(impersonating).toMatchObject({ isError: true, body: { error: { code: 'forbidden' } } });
    const created = await call(ann, 'create_resource', { kind: 'text', operator: 'agent:mcp-client' });
    expect(created).toMatchObject({ isError: true, body: { error: { code: 'forbidden' } } });
    const owner = await connectHttp(httpUrl);
    const ownerAsAnn = await call(owner, 'commit_resource', { resourceId: id, baseRevision: 1, op: { type: 'append', text: 'o' }, operator: 'human:ann' });
    await owner.close();
    expect(ownerAsAnn).toMatchObject({ isError: true, body: { error: { code: 'forbidden' } } });
    const viewerCommit = await call(vic, 'commit_resource', { resourceId: id, baseRevision: 1, op: { type: 'append', text: 'v' } });
    expect(viewerCommit).toMatchObject({ isError: true, body: { error: { code: 'forbidden' } } });
    const viewerTask = await call(vic, 'start_task', { request: 'do it' });
    expect(viewerTask).toMatchObject({ isError: true, body: { error: { code: 'forbidden' } } });
    // A viewer reads, and sees changes by others since a revision as themselves.
    const read = await call(vic, 'read_resource', { resourceId: id, sinceRevision: 0 });
    expect(read.isError).toBe(false);
    expect(await headOf(id)).toEqual({ revision: 1, operators: ['human:owner', 'human:ann'] });
  });
});

describe('revoking', () => {
  it('refuses a revoked token at once: requests, sessions and open sockets', async () => {
    const signIn = await t.request({ method: 'POST', url: '/api/session', payload: { token: tokens.rev }, headers: { authorization: undefined } });
    const cookie = String(signIn.headers['set-cookie']).split(';')[0]!;
    const socket = await TestClient.connect(wsUrl, as('rev'));
    const ticket = body<{ ticket: string }>(await t.request({ method: 'POST', url: '/api/ws-tickets', headers: as('rev') })).ticket;
    expect((await t.request({ method: 'GET', url: '/api/resources', headers: as('rev') })).statusCode).toBe(200);

    const revoked = await t.request({ method: 'DELETE', url: '/api/users/rev' });
    expect(body<{ user: { revokedAt: string | null } }>(revoked).user.revokedAt).toEqual(expect.any(String));
    // The revocation closes the person's socket with its own close code.
    await socket.whenClosed();
    expect(socket.closed?.code).toBe(4003);
    for (const headers of [as('rev'), { authorization: undefined, cookie }]) {
      const res = await t.request({ method: 'GET', url: '/api/resources', headers });
      expect([res.statusCode, errorCode(res)]).toEqual([401, 'unauthorized']);
    }
    await expect(TestClient.connect(`${wsUrl}?ticket=${ticket}`, {})).rejects.toThrow(/401/);
    await expect(TestClient.connect(wsUrl, as('rev'))).rejects.toThrow(/401/);
    const signInAgain = await t.request({ method: 'POST', url: '/api/session', payload: { token: tokens.rev }, headers: { authorization: undefined } });
    expect(errorCode(signInAgain)).toBe('unauthorized');
  });

  it('a token revoked by another process (cowork users revoke) closes its open sockets too', async () => {
    const socket = await TestClient.connect(wsUrl, as('cli'));
    // Revoked behind this server's back, as `cowork users revoke` in another process does: only the store knows.
    await new UserDirectory(t.host.store).revoke('cli');
    await socket.whenClosed();
    expect(socket.closed?.code).toBe(4003);
    expect((await t.request({ method: 'GET', url: '/api/resources', headers: as('cli') })).statusCode).toBe(401);
  });
});
