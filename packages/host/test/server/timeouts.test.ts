/**
 * Invariant: a client cannot hold a connection by sending slowly. A request whose headers or body
 * trickle in is cut off at the request timeout with 408 `request_timeout` in the error shape (and
 * nothing is committed); a live WebSocket, which is not a request in flight, is not cut off.
 */
import { connect, type Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { startTestServer, TestClient, TOKEN, type TestServer } from './harness';

let t: TestServer;
let port: number;
beforeEach(async () => {
  t = await startTestServer({ port: 0, requestTimeoutMs: 1000 });
  port = Number(new URL(await t.listenHttp()).port);
});
afterEach(() => t.dispose());

/** Sends `head`, then `body` one byte every `everyMs` until the server answers and closes; resolves with what it answered and how much was sent. */
async function trickle(head: string, body: string, everyMs: number): Promise<{ answer: string; sentBytes: number }> {
  const socket: Socket = connect(port, '127.0.0.1');
  let answer = '';
  let closed = false;
  socket.on('data', (chunk) => (answer += chunk.toString('utf8')));
  const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.on('close', () => (closed = true));
  socket.on('error', () => undefined);
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(head);
  let sentBytes = 0;
  for (const byte of body) {
    if (closed) break;
    await delay(everyMs);
    if (!closed) socket.write(byte);
    sentBytes++;
  }
  socket.end();
  await ended;
  return { answer, sentBytes };
}

it('cuts off a body trickled a byte at a time, answering 408 request_timeout, and commits nothing', async () => {
  const { id } = await t.host.resources.create({ kind: 'text', operator: 'human:ann' });
  const body = JSON.stringify({ baseRevision: 0, op: { type: 'append', text: 'slow' }, operator: 'human:ann' });
  const head = [`POST /api/resources/${id}/commits HTTP/1.1`, `host: 127.0.0.1:${port}`, `authorization: Bearer ${TOKEN}`, 'content-type: application/json', `content-length: ${body.length}`, '', ''].join('\r\n');
  const { answer, sentBytes } = await trickle(head, body, 200);
  expect(sentBytes).toBeLessThan(body.length);
  expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ error: { code: 'request_timeout', hint: expect.any(String) } });
  expect((await t.host.resources.get(id)).revision).toBe(0);
});

it('cuts off headers that never end', async () => {
  const { answer, sentBytes } = await trickle('GET /api/health HTTP/1.1\r\n', 'x-slow: ' + 'a'.repeat(200), 200);
  expect(sentBytes).toBeLessThan(208);
  expect(answer).toMatch(/^HTTP\/1\.1 408 /);
});

it('leaves a quiet WebSocket open past the request timeout', async () => {
  const { id } = await t.host.resources.create({ kind: 'text', operator: 'human:ann' });
  const client = await TestClient.connect(`ws://127.0.0.1:${port}/ws`);
  client.send({ type: 'subscribe', resourceId: id, sinceRevision: 0, requestId: 's1' });
  await client.next('subscribed', 's1');
  await delay(2500);
  await t.host.resources.commit(id, { baseRevision: 0, op: { type: 'append', text: 'later' }, operator: 'human:ann' });
  await client.until((ms) => ms.some((m) => m.type === 'revision' && m.revision === 1), 'revision 1');
  client.close();
});
