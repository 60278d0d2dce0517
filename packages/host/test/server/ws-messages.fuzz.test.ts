/**
 * Invariant: no client frame, however wrong, crashes the live protocol, closes the socket, or
 * writes anything in part. Over 10,000 schema-driven frames (test/support/ws-frames.ts, seeded)
 * over real sockets, from two owner sockets, an editor's and a viewer's at once, pipelined in
 * batches: every frame gets exactly one answer, in order; every error's code is in the registry;
 * a frame the schema refuses is `invalid_input` (`invalid_json` when it is not JSON, binary ones
 * too), and echoes its requestId when it had a usable one; a viewer's commits are all `forbidden`;
 * every `committed` names a revision that holds the op and operator sent, and the revisions that
 * appeared are exactly those named; the database passes its integrity check and every history runs
 * from 0 to its head. The only closes are the documented limits, each triggered on purpose: a frame
 * over `maxPayload` (1009) and a text frame that is not UTF-8 (1007, the WebSocket protocol's rule).
 */
import fc from 'fast-check';
import WebSocket from 'ws';
import { ERROR_CODES, isErrorCode } from '../../src/errors/codes';
import { MessageParser } from '../../src/server/ws/messages';
import { clientFrame, toWire, type FrameContext, type Wire } from '../support/ws-frames';
import { body, startTestServer, TestClient, TOKEN, type TestServer } from './harness';

/** The criterion: at least this many frames in all. */
const MIN_FRAMES = 10_000;
const SEED = 16_016;
const FRAMES_PER_SOCKET = 3_000;
/** Frames sent before waiting for their answers. */
const BATCH = 50;
/** The server's body limit, which is also the WebSocket's maxPayload: above the largest fuzzed frame. */
const BODY_LIMIT = 512 * 1024;
/** Frames the server sends on its own, not in answer to one. */
const PUSHED = new Set(['revision', 'task_event']);
/** A viewer's successes: it reads, subscribes and saves its own selection (which changes no resource), nothing more. */
const READ_ANSWERS = new Set(['subscribed', 'unsubscribed', 'task_subscribed', 'task_unsubscribed', 'selected', 'error']);
/** The answer to each message type when it succeeds. */
const SUCCESS: Record<string, string> = {
  subscribe: 'subscribed',
  unsubscribe: 'unsubscribed',
  commit: 'committed',
  subscribe_task: 'task_subscribed',
  unsubscribe_task: 'task_unsubscribed',
  decide_approval: 'approval_decided',
  select: 'selected',
};

type Answer = Record<string, unknown> & { type: string; requestId?: unknown; error?: { code: string; message: string } };

/** A raw socket that counts pushes and queues answers, so that the nth answer is the nth frame's. */
class FuzzSocket {
  readonly answers: Answer[] = [];
  pushes = 0;
  closed: { code: number; reason: string } | undefined;
  private waiter: { count: number; resolve: () => void } | undefined;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as Answer;
      if (PUSHED.has(message.type)) this.pushes++;
      else this.answers.push(message);
      if (this.waiter && this.answers.length >= this.waiter.count) this.waiter.resolve();
    });
    socket.on('close', (code, reason) => {
      this.closed = { code, reason: String(reason) };
      this.waiter?.resolve();
    });
  }

  static open(url: string, token: string): Promise<FuzzSocket> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { headers: { authorization: `Bearer ${token}` } });
      socket.once('open', () => resolve(new FuzzSocket(socket)));
      socket.once('error', reject);
    });
  }

  /** Sends the frames and resolves with their answers, in order. */
  async roundTrip(wires: readonly Wire[]): Promise<Answer[]> {
    const start = this.answers.length;
    for (const wire of wires) {
      if ('bytes' in wire) this.socket.send(wire.bytes, { binary: true });
      else this.socket.send(wire.text);
    }
    const count = start + wires.length;
    if (this.answers.length < count && !this.closed) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${count - this.answers.length} of ${wires.length} frames unanswered after 30 s`)), 30_000);
        this.waiter = { count, resolve: () => (clearTimeout(timer), resolve()) };
      });
      this.waiter = undefined;
    }
    return this.answers.slice(start, count);
  }
}

interface Who {
  readonly name: string;
  readonly token: string;
  /** The operator of a write that names none. */
  readonly operator: string;
  readonly role: 'owner' | 'editor' | 'viewer';
}

interface Committed {
  readonly resourceId: string;
  readonly revision: number;
  readonly op: unknown;
  readonly operator: string;
}

let t: TestServer;
let url: string;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  t = await startTestServer({ port: 0, bodyLimit: BODY_LIMIT, live: { pollMs: 0 } });
  url = await t.listen();
  for (const [name, role] of [['fuzzeditor', 'editor'], ['fuzzviewer', 'viewer']] as const) {
    const res = await t.request({ method: 'POST', url: '/api/users', payload: { name, role } });
    expect(res.statusCode).toBe(201);
    tokens[role] = body<{ token: string }>(res).token;
  }
});
afterAll(() => t.dispose());

it('answers every frame once, with registry errors, never closing or writing in part', async () => {
  const resourceIds: string[] = [];
  for (let i = 0; i < 4; i++) resourceIds.push((await t.host.resources.create({ kind: 'text', content: { text: `seed ${i}` }, operator: 'human:owner' })).id);
  await t.host.coordinator.record({ type: 'task.created', data: { taskId: 'task_fuzz', request: 'be fuzzed' } });
  const headsBefore = new Map((await t.host.resources.list()).map((r) => [r.id, r.revision]));
  const parser = new MessageParser();

  const people: Who[] = [
    { name: 'owner-1', token: TOKEN, operator: 'human:user', role: 'owner' },
    { name: 'owner-2', token: TOKEN, operator: 'human:user', role: 'owner' },
    { name: 'editor', token: tokens.editor!, operator: 'human:fuzzeditor', role: 'editor' },
    { name: 'viewer', token: tokens.viewer!, operator: 'human:fuzzviewer', role: 'viewer' },
  ];
  const problems: string[] = [];
  const committed: Committed[] = [];
  const tally: Record<string, number> = {};
  let frames = 0;

  const fuzz = async (who: Who, index: number): Promise<FuzzSocket> => {
    const context: FrameContext = {
      resourceIds,
      taskIds: ['task_fuzz'],
      operators: who.role === 'owner' ? ['human:ann', 'agent:bot-1', 'human:fuzzeditor'] : [who.operator, 'human:ann', 'agent:bot-1'],
    };
    const specs = fc.sample(clientFrame(context), { seed: SEED + index, numRuns: FRAMES_PER_SOCKET });
    const socket = await FuzzSocket.open(url, who.token);
    for (let at = 0; at < specs.length && !socket.closed; at += BATCH) {
      const heads = new Map(await Promise.all(resourceIds.map(async (id) => [id, (await t.host.resources.get(id)).revision] as const)));
      const batch = specs.slice(at, at + BATCH);
      const wires = batch.map((spec) => toWire(spec, (id) => heads.get(id as string) ?? 0));
      const answers = await socket.roundTrip(wires);
      frames += answers.length;
      batch.forEach((spec, i) => {
        const answer = answers[i];
        if (!answer) return;
        const outcome = answer.type === 'error' ? `error ${answer.error?.code}` : answer.type;
        tally[outcome] = (tally[outcome] ?? 0) + 1;
        const problem = check(who, wires[i]!, answer, parser, committed);
        if (problem) problems.push(`${who.name} frame ${at + i} (seed ${SEED + index}): ${problem}\n  sent (${spec.kind === 'message' ? (spec.mutated ?? 'valid') : spec.kind}) ${shown(wires[i]!)}\n  got ${JSON.stringify(answer).slice(0, 300)}`);
      });
    }
    return socket;
  };
  const sockets = await Promise.all(people.map((who, i) => fuzz(who, i)));

  expect(problems.slice(0, 20)).toEqual([]);
  expect(frames).toBeGreaterThanOrEqual(MIN_FRAMES);
  // No socket was closed, and each got exactly one answer per frame.
  expect(sockets.map((s) => [s.closed, s.answers.length])).toEqual(people.map(() => [undefined, FRAMES_PER_SOCKET]));
  // The frames reached past validation: successes and refusals of every kind.
  expect(tally).toEqual(expect.objectContaining({ subscribed: expect.any(Number), unsubscribed: expect.any(Number), task_subscribed: expect.any(Number), task_unsubscribed: expect.any(Number) }));
  expect(tally.committed).toBeGreaterThan(50);
  for (const code of ['invalid_json', 'invalid_input', 'invalid_op', 'not_found', 'revision_conflict', 'forbidden']) expect({ code, seen: (tally[`error ${code}`] ?? 0) > 0 }).toEqual({ code, seen: true });

  // No partial write: the revisions that appeared are exactly those the `committed` answers named,
  // each holding the op and operator its frame sent; every history is whole.
  expect(await t.host.store.integrityCheck()).toEqual([]);
  const appeared: string[] = [];
  for (const resource of await t.host.resources.list()) {
    const history = await t.host.resources.history(resource.id);
    expect({ id: resource.id, revisions: history.map((r) => r.revision) }).toEqual({ id: resource.id, revisions: Array.from({ length: resource.revision + 1 }, (_, i) => i) });
    expect(headsBefore.has(resource.id)).toBe(true);
    for (let revision = headsBefore.get(resource.id)! + 1; revision <= resource.revision; revision++) appeared.push(`${resource.id}@${revision}`);
  }
  expect(appeared.sort()).toEqual([...new Set(committed.map((c) => `${c.resourceId}@${c.revision}`))].sort());
  for (const c of committed) {
    const [record] = await t.host.resources.history(c.resourceId, { after: c.revision - 1, limit: 1 });
    expect({ at: `${c.resourceId}@${c.revision}`, op: record?.op, operator: record?.operator }).toEqual({ at: `${c.resourceId}@${c.revision}`, op: c.op, operator: c.operator });
  }
  expect(t.errors).toEqual([]);

  // The server still serves a plain client.
  for (const socket of sockets) socket.socket.close();
  const client = await TestClient.connect(url);
  const id = resourceIds[0]!;
  const head = (await t.host.resources.get(id)).revision;
  client.send({ type: 'subscribe', resourceId: id, requestId: 'end-1' });
  expect(await client.next('subscribed', 'end-1')).toMatchObject({ resourceId: id, currentRevision: head });
  client.send({ type: 'commit', resourceId: id, baseRevision: head, op: { type: 'append', text: '.' }, requestId: 'end-2' });
  expect(await client.next('committed', 'end-2')).toMatchObject({ resourceId: id, revision: head + 1 });
  await client.until((ms) => ms.some((m) => m.type === 'revision' && m.revision === head + 1), 'the revision pushed');
  await client.close();
}, 300_000);

it('closes only for the documented limits, and only the socket that broke them', async () => {
  const id = (await t.host.resources.create({ kind: 'text', operator: 'human:owner' })).id;
  const bystander = await TestClient.connect(url);
  bystander.send({ type: 'subscribe', resourceId: id, requestId: 's' });
  await bystander.next('subscribed', 's');

  // A frame over maxPayload (the server's body limit): 1009, "message too big".
  const big = await FuzzSocket.open(url, TOKEN);
  big.socket.send(JSON.stringify({ type: 'commit', resourceId: id, baseRevision: 0, op: { type: 'append', text: 'x'.repeat(BODY_LIMIT) } }));
  await new Promise((resolve) => big.socket.once('close', resolve));
  expect(big.closed?.code).toBe(1009);
  // A text frame that is not UTF-8: the protocol requires the connection to fail (1007).
  const garbled = await FuzzSocket.open(url, TOKEN);
  garbled.socket.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), { binary: false });
  await new Promise((resolve) => garbled.socket.once('close', resolve));
  expect(garbled.closed?.code).toBe(1007);

  // Nothing was written, and the bystander is served as before.
  expect((await t.host.resources.get(id)).revision).toBe(0);
  bystander.send({ type: 'commit', resourceId: id, baseRevision: 0, op: { type: 'append', text: 'ok' }, requestId: 'c' });
  expect(await bystander.next('committed', 'c')).toMatchObject({ revision: 1 });
  expect(bystander.closed).toBeUndefined();
  await bystander.close();
  expect(t.errors).toEqual([]);
});

/** What is wrong with an answer to a frame, or undefined. Records the commits it confirms. */
function check(who: Who, wire: Wire, answer: Answer, parser: MessageParser, committed: Committed[]): string | undefined {
  if (answer.type === 'error') {
    const code = answer.error?.code;
    if (typeof code !== 'string' || !isErrorCode(code)) return `error code ${String(code)} is not in the registry`;
    if (typeof answer.error?.message !== 'string') return 'error without a message';
    if (ERROR_CODES[code].status >= 500) return `a server error (${code}) for a client frame`;
  }
  if (who.role === 'viewer' && !READ_ANSWERS.has(answer.type)) return `a viewer was answered ${answer.type}`;
  if ('bytes' in wire) return answer.error?.code === 'invalid_input' ? undefined : 'a binary frame not refused as invalid_input';

  let parsed: unknown;
  try {
    parsed = JSON.parse(wire.text);
  } catch {
    return answer.error?.code === 'invalid_json' && answer.requestId === undefined ? undefined : 'text that is not JSON not refused as invalid_json';
  }
  const id = (parsed as { requestId?: unknown } | null)?.requestId;
  const echoed = typeof id === 'string' && id.length >= 1 && id.length <= 200 ? id : undefined;
  if (answer.requestId !== echoed) return `requestId ${JSON.stringify(answer.requestId)}, not ${JSON.stringify(echoed)}`;

  let message: Record<string, unknown>;
  try {
    message = parser.check(parsed) as unknown as Record<string, unknown>;
  } catch {
    return answer.error?.code === 'invalid_input' ? undefined : `a frame its schema refuses answered ${answer.error?.code ?? answer.type}`;
  }
  if (answer.type === 'error') {
    const code = answer.error!.code;
    if (code === 'invalid_json') return 'a valid message refused as invalid_json';
    if (who.role === 'viewer' && message.type === 'commit' && code !== 'forbidden') return `a viewer's commit refused as ${code}, not forbidden`;
    if (who.role === 'editor' && message.type === 'commit' && message.operator !== undefined && message.operator !== who.operator && code !== 'forbidden') {
      return `an editor's commit as ${String(message.operator)} refused as ${code}, not forbidden`;
    }
    return undefined;
  }
  const expected = SUCCESS[message.type as string];
  if (expected !== undefined && answer.type !== expected) return `${String(message.type)} answered ${answer.type}`;
  if (who.role === 'viewer' && message.type === 'commit') return "a viewer's commit was not refused";
  if (answer.type === 'committed') {
    if (answer.resourceId !== message.resourceId || typeof answer.revision !== 'number') return 'committed names another resource or no revision';
    if (who.role === 'editor' && message.operator !== undefined && message.operator !== who.operator) return 'an editor committed as someone else';
    committed.push({ resourceId: answer.resourceId as string, revision: answer.revision, op: message.op, operator: (message.operator as string | undefined) ?? who.operator });
  }
  if ((answer.type === 'subscribed' || answer.type === 'unsubscribed') && answer.resourceId !== message.resourceId) return `${answer.type} names another resource`;
  return undefined;
}

function shown(wire: Wire): string {
  if ('bytes' in wire) return `binary ${Buffer.from(wire.bytes).toString('hex').slice(0, 80)}`;
  return wire.text.length > 300 ? `${wire.text.slice(0, 300)}… (${wire.text.length} characters)` : wire.text;
}
