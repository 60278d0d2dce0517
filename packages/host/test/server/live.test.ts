/**
 * Invariant: a live client subscribed with sinceRevision N receives every revision after N exactly
 * once, in order, with no gaps, whether it was committed before it subscribed, while it caught up,
 * or after; a client that reconnects with the last revision it saw catches up exactly; commits
 * over the socket are the same commits as over HTTP (same revision_conflict); and a client that
 * stops reading is dropped without holding up anyone else.
 */
import type { Socket } from 'node:net';
import { Host } from '../../src/host';
import type { Operator } from '../../src/store/records';
import { range, startTestServer, TestClient, type Message, type TestServer } from './harness';

let t: TestServer;
let url: string;
beforeEach(async () => {
  t = await startTestServer({ port: 0, live: { maxBufferedBytes: 256 * 1024, pollMs: 50, pageSize: 7 } });
  url = await t.listen();
});
afterEach(() => t.dispose());

async function createText(): Promise<string> {
  return (await t.host.resources.create({ kind: 'text', operator: 'human:ann' })).id;
}

/**
 * One commit, then a turn of the event loop. The SQLite store answers without I/O, so a loop of
 * bare in-process commits would never let the sockets run; real writers arrive over the network.
 */
async function append(id: string, base: number, text = 'x', operator: Operator = 'agent:writer'): Promise<number> {
  const { revision } = await t.host.resources.commit(id, { baseRevision: base, op: { type: 'append', text }, operator });
  await new Promise((resolve) => setImmediate(resolve));
  return revision;
}

function received(client: TestClient, id: string, upTo: number): Promise<void> {
  return client.until((ms) => ms.some((m) => m.type === 'revision' && m.resourceId === id && m.revision === upTo), `revision ${upTo}`);
}

it('100 clients on one resource each receive every revision, in order, with no gaps, while commits go on', async () => {
  const id = await createText();
  let head = 0;
  for (let i = 0; i < 10; i++) head = await append(id, head);

  // Commits keep landing while the clients connect, subscribe and catch up.
  let stop = false;
  const writer = (async () => {
    while (!stop || head < 60) head = await append(id, head);
  })();
  const clients = await Promise.all(
    range(100).map(async (i) => {
      const client = await TestClient.connect(url);
      const since = i % 4 === 0 ? -1 : i % 10;
      client.send({ type: 'subscribe', resourceId: id, sinceRevision: since, requestId: `s${i}` });
      await client.next('subscribed', `s${i}`);
      return { client, since };
    }),
  );
  stop = true;
  await writer;
  // The subscriptions really did interleave with commits: they found the resource at many revisions.
  const seenAt = new Set(clients.map(({ client }) => client.messages.find((m) => m.type === 'subscribed')!.currentRevision));
  expect(seenAt.size).toBeGreaterThan(5);

  for (const { client, since } of clients) {
    await received(client, id, head);
    expect(client.revisions(id)).toEqual(range(head - since, since + 1));
    const first = client.messages.find((m) => m.type === 'revision' && m.revision === 1);
    if (since < 1) expect(first).toEqual({ type: 'revision', resourceId: id, revision: 1, action: 'op', operator: 'agent:writer', op: { type: 'append', text: 'x' } });
  }
  await Promise.all(clients.map(({ client }) => client.close()));
});

it('a client that reconnects with sinceRevision catches up exactly, then stays live', async () => {
  const id = await createText();
  let head = await append(id, 0);
  const first = await TestClient.connect(url);
  first.send({ type: 'subscribe', resourceId: id, sinceRevision: 0 });
  head = await append(id, head);
  await received(first, id, head);
  const seen = first.revisions(id);
  await first.close();

  for (let i = 0; i < 20; i++) head = await append(id, head);
  const again = await TestClient.connect(url);
  again.send({ type: 'subscribe', resourceId: id, sinceRevision: seen[seen.length - 1] });
  expect(await again.next('subscribed')).toMatchObject({ resourceId: id, sinceRevision: 2, currentRevision: head });
  await received(again, id, head);
  head = await append(id, head);
  await received(again, id, head);
  expect([...seen, ...again.revisions(id)]).toEqual(range(head, 1));
  await again.close();
});

it('without sinceRevision a client gets only new revisions', async () => {
  const id = await createText();
  const head = await append(id, 0);
  const client = await TestClient.connect(url);
  client.send({ type: 'subscribe', resourceId: id });
  expect(await client.next('subscribed')).toMatchObject({ sinceRevision: head, currentRevision: head });
  await append(id, head);
  await received(client, id, head + 1);
  expect(client.revisions(id)).toEqual([head + 1]);
  await client.close();
});

it('commits over the socket with the same revision check, and answers refusals with coded errors', async () => {
  const id = await createText();
  const client = await TestClient.connect(url);
  client.send({ type: 'subscribe', resourceId: id, sinceRevision: 0 });
  client.send({ type: 'commit', requestId: 'c1', resourceId: id, baseRevision: 0, op: { type: 'append', text: 'a' }, operator: 'human:ann' });
  expect(await client.next('committed', 'c1')).toEqual({ type: 'committed', requestId: 'c1', resourceId: id, revision: 1 });
  await received(client, id, 1);

  client.send({ type: 'commit', requestId: 'c2', resourceId: id, baseRevision: 0, op: { type: 'append', text: 'b' }, operator: 'human:bob' });
  const conflict = await client.next('error', 'c2');
  expect(conflict.error).toMatchObject({ code: 'revision_conflict', currentRevision: 1, candidateId: expect.stringMatching(/^cand_/) });
  expect((await t.host.resources.listCandidates(id, 'open')).map((c) => c.id)).toEqual([(conflict.error as Message).candidateId]);

  const refusals: [Record<string, unknown> | string, string][] = [
    ['{not json', 'invalid_json'],
    [{ type: 'dance' }, 'invalid_input'],
    [{ type: 'commit', requestId: 'r3', resourceId: id, baseRevision: '1', op: {}, operator: 'human:ann' }, 'invalid_input'],
    [{ type: 'commit', requestId: 'r4', resourceId: id, baseRevision: 1, op: { type: 'nope' }, operator: 'human:ann' }, 'invalid_op'],
    [{ type: 'subscribe', requestId: 'r5', resourceId: 'res_missing' }, 'not_found'],
    [{ type: 'subscribe', requestId: 'r6', resourceId: id, sinceRevision: 99 }, 'invalid_input'],
    [{ type: 'subscribe_task', requestId: 'r7', taskId: 'task_missing' }, 'not_found'],
  ];
  for (const [message, code] of refusals) {
    const before = client.messages.length;
    client.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
    await client.until((ms) => ms.slice(before).some((m) => m.type === 'error'), `an error for ${JSON.stringify(message)}`);
    const error = client.messages.slice(before).find((m) => m.type === 'error')!;
    expect({ message, code: (error.error as Message).code }).toEqual({ message, code });
    if (typeof message !== 'string' && message.requestId) expect(error.requestId).toBe(message.requestId);
  }
  expect((await t.host.resources.get(id)).revision).toBe(1);
  await client.close();
});

it('sees commits made by another process on the same workspace', async () => {
  const id = await createText();
  const client = await TestClient.connect(url);
  client.send({ type: 'subscribe', resourceId: id, sinceRevision: 0 });
  await client.next('subscribed');
  // A second host on the same workspace is another SQLite connection, as `cowork resources commit` is.
  const other = await Host.open({ workspaceDir: t.host.workspaceDir });
  try {
    await other.resources.commit(id, { baseRevision: 0, op: { type: 'append', text: 'cli' }, operator: 'human:cli' });
    await other.resources.commit(id, { baseRevision: 1, op: { type: 'append', text: 'cli' }, operator: 'human:cli' });
  } finally {
    await other.close();
  }
  await received(client, id, 2);
  await append(id, 2);
  await received(client, id, 3);
  expect(client.revisions(id)).toEqual([1, 2, 3]);
  await client.close();
});

it('drops a client that stops reading, while the others keep receiving everything', async () => {
  const id = await createText();
  const fast = await Promise.all(range(3).map(() => TestClient.connect(url)));
  const slow = await TestClient.connect(url);
  for (const client of [...fast, slow]) {
    client.send({ type: 'subscribe', resourceId: id, sinceRevision: 0 });
    await client.next('subscribed');
  }
  // Stop reading: the kernel buffers fill, then the server's queue for this client grows.
  (slow.socket as unknown as { _socket: Socket })._socket.pause();

  const big = 'y'.repeat(32 * 1024);
  let head = 0;
  while (t.server.live.size === 4 && head < 2000) {
    head = (await t.host.resources.commit(id, { baseRevision: head, op: { type: 'set', text: `${head}${big}` }, operator: 'agent:w' })).revision;
    await new Promise((resolve) => setImmediate(resolve));
  }
  expect(t.server.live.size).toBe(3);
  for (let i = 0; i < 5; i++) head = await append(id, head);

  for (const client of fast) {
    await received(client, id, head);
    expect(client.revisions(id)).toEqual(range(head, 1));
  }
  (slow.socket as unknown as { _socket: Socket })._socket.resume();
  await slow.whenClosed();
  // What it did get before being dropped is still a gap-free prefix.
  const got = slow.revisions(id);
  expect(got).toEqual(range(got.length, 1));
  expect(got.length).toBeLessThan(head);
  await Promise.all(fast.map((c) => c.close()));
});
