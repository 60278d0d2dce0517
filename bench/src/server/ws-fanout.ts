/**
 * WebSocket fan-out latency of the real server: one text resource, 100 and then 1,000 live
 * clients subscribed to it, then a run of commits. Each commit appends its send time (epoch ms),
 * so every client computes delivery latency as its receive time minus that. Prints p50, p99 and
 * max over all deliveries, and counts revisions a client missed or got out of order (must be 0).
 * Asserts nothing about time.
 *
 * The baseline, in the same run: a plain `ws` WebSocketServer in a worker thread (raw-broadcast.ts)
 * that per commit serialises a message of the same shape and size as the server's revision event
 * (a real one, captured by a client in the cowork run, is the template) and sends it to every
 * subscribed client; the same clients measure it the same way. The ratio of the p99 deliveries
 * (cowork/raw) per subscriber count is the server's cost over fanning out with `ws` alone; the
 * aim is at most 1.5 at 1,000 subscribers.
 *
 * The server runs in a worker thread; the clients all run on the main thread, so a latency
 * includes the clients' own work (1,000 sockets' frames parsed one after another on one core).
 *
 * BENCH_WS_COMMITS (default 200) after BENCH_WS_WARMUP (default 20) warm-up commits;
 * BENCH_WS_SUBSCRIBERS (default "100,1000").
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { epochNow } from '../clock';
import { machineLine } from '../runtime/report';
import { summarizeLatencies, type LatencySummary } from '../stats';
import { DeliveryTally } from './delivery-tally';
import { RawBroadcastThread, type RevisionTemplate } from './raw-broadcast';
import { ServerThread } from './server-thread';
import { count, formatTable, ms } from './table';
import { Subscriber } from './ws-subscriber';

const COMMITS = Number(process.env.BENCH_WS_COMMITS ?? 200);
const WARMUP_COMMITS = Number(process.env.BENCH_WS_WARMUP ?? 20);
const SIZES = (process.env.BENCH_WS_SUBSCRIBERS ?? '100,1000').split(',').map(Number);
/** Upgrades in flight at once while clients connect. */
const CONNECT_BATCH = 50;
/** How long one commit may take to reach every client before the run moves on and counts what is missing. */
const DELIVERY_TIMEOUT_MS = 10_000;
/** The aim: p99 delivery at 1,000 subscribers within this factor of the raw broadcast's. */
const AIM_RATIO = 1.5;

type TargetKind = 'cowork' | 'raw ws';

/** What a run fans out from: a server with one resource the clients subscribe to, and a way to make its next revision. */
interface FanoutTarget {
  readonly wsUrl: string;
  readonly token: string;
  readonly resourceId: string;
  /** The resource's revision before the first commit. */
  readonly revision: number;
  /** Makes the next revision, its op carrying `text`; `commitMs` is the call as timed in the server's thread. */
  commit(text: string): Promise<{ revision: number; commitMs: number }>;
  stop(): Promise<void>;
}

interface FanoutResult {
  readonly kind: TargetKind;
  readonly subscribers: number;
  readonly connectMs: number;
  readonly delivered: number;
  readonly expected: number;
  readonly gaps: number;
  readonly commit: LatencySummary;
  readonly delivery: LatencySummary;
  /** The last revision frame one client received, as sent. */
  readonly frame: string | undefined;
}

async function main(): Promise<void> {
  console.log(
    `WebSocket fan-out: one text resource, ${COMMITS} commits after ${WARMUP_COMMITS} warm-up, each made once every ` +
      'subscriber has the one before; server in a worker thread, all clients on the main thread; synchronous=FULL (the default)',
  );
  console.log('baseline in the same run: a plain ws WebSocketServer in a worker thread broadcasting a copy of the server\'s revision message to the same clients');
  console.log(machineLine());
  const results: FanoutResult[] = [];
  let template: RevisionTemplate | undefined;
  for (const subscribers of SIZES) {
    const cowork = await measure('cowork', subscribers, startCowork);
    results.push(cowork);
    // The first revision message a client got from the real server is the raw broadcast's template.
    if (!template && cowork.frame) template = JSON.parse(cowork.frame) as RevisionTemplate;
    if (!template) throw new Error('no revision message from the cowork server to copy');
    const shape = template;
    results.push(await measure('raw ws', subscribers, () => startRaw(shape)));
  }
  const rows = results.map((r) => [
    r.kind,
    count(r.subscribers),
    (r.connectMs / 1000).toFixed(2),
    `${count(r.delivered)}/${count(r.expected)}`,
    count(r.gaps),
    ms(r.commit.p50Ms),
    ms(r.commit.p99Ms),
    ms(r.delivery.p50Ms),
    ms(r.delivery.p99Ms),
    ms(r.delivery.maxMs),
  ]);
  console.log();
  console.log(formatTable(['server', 'subscribers', 'connect s', 'deliveries', 'gaps', 'commit p50 ms', 'commit p99 ms', 'p50 ms', 'p99 ms', 'max ms'], rows));
  console.log();
  for (const subscribers of SIZES) {
    const cowork = results.find((r) => r.kind === 'cowork' && r.subscribers === subscribers);
    const raw = results.find((r) => r.kind === 'raw ws' && r.subscribers === subscribers);
    if (!cowork || !raw) continue;
    const ratio = cowork.delivery.p99Ms / raw.delivery.p99Ms;
    const aim = subscribers === 1000 ? ` (aim <= ${AIM_RATIO.toFixed(1)}: ${ratio <= AIM_RATIO ? 'met' : 'missed'})` : '';
    console.log(
      `${count(subscribers).padStart(5)} subscribers  cowork/raw delivery: p99 x${ratio.toFixed(2)}${aim}, p50 x${(cowork.delivery.p50Ms / raw.delivery.p50Ms).toFixed(2)}`,
    );
  }
  const frameBytes = (kind: TargetKind): string => {
    const frame = results.find((r) => r.kind === kind)?.frame;
    return frame === undefined ? '-' : `${Buffer.byteLength(frame)} bytes`;
  };
  console.log(`revision frame: cowork ${frameBytes('cowork')}, raw ws ${frameBytes('raw ws')}; e.g. ${results.find((r) => r.kind === 'cowork')?.frame ?? '-'}`);
  console.log(LEGEND);
}

async function startCowork(): Promise<FanoutTarget> {
  const server = await ServerThread.start('cowork');
  try {
    const [resource] = (await server.request({ type: 'create', count: 1 }, 'created')).resources;
    if (!resource) throw new Error('the server created no resource');
    return {
      wsUrl: `${server.url.replace(/^http/, 'ws')}/ws`,
      token: server.token,
      resourceId: resource.id,
      revision: resource.revision,
      commit: (text) => server.request({ type: 'commit', resourceId: resource.id, text }, 'committed'),
      stop: () => server.stop(),
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

async function startRaw(template: RevisionTemplate): Promise<FanoutTarget> {
  const server = await RawBroadcastThread.start(template);
  return {
    wsUrl: server.ready.url,
    token: 'unused',
    resourceId: server.ready.resourceId,
    revision: server.ready.revision,
    async commit(text) {
      const { revision, broadcastMs } = await server.broadcast(text);
      return { revision, commitMs: broadcastMs };
    },
    stop: () => server.stop(),
  };
}

async function measure(kind: TargetKind, subscribers: number, start: () => Promise<FanoutTarget>): Promise<FanoutResult> {
  const server = await start();
  const tally = new DeliveryTally(subscribers);
  const clients: Subscriber[] = [];
  try {
    const resource = { id: server.resourceId, revision: server.revision };
    const wsUrl = server.wsUrl;

    const connecting = performance.now();
    while (clients.length < subscribers) {
      const size = Math.min(CONNECT_BATCH, subscribers - clients.length);
      const batch = await Promise.all(Array.from({ length: size }, () => Subscriber.connect(wsUrl, server.token, tally)));
      clients.push(...batch);
      await Promise.all(batch.map((client) => client.subscribe(resource.id, resource.revision)));
    }
    const connectMs = performance.now() - connecting;

    tally.measureAfter = resource.revision + WARMUP_COMMITS;
    const commitMs: number[] = [];
    for (let i = 1; i <= WARMUP_COMMITS + COMMITS; i++) {
      const committed = server.commit(epochNow().toFixed(3));
      await tally.allReceived(resource.revision + i, DELIVERY_TIMEOUT_MS);
      const reply = await committed;
      if (reply.revision !== resource.revision + i) throw new Error(`commit ${i} made revision ${reply.revision}`);
      if (i > WARMUP_COMMITS) commitMs.push(reply.commitMs);
      // Let sockets, timers and the server's replies run between commits, as they would between real edits.
      await yieldToEventLoop();
    }

    const first = resource.revision + 1;
    const last = resource.revision + WARMUP_COMMITS + COMMITS;
    return {
      kind,
      subscribers,
      connectMs,
      delivered: tally.deliveries(first, last),
      expected: subscribers * (WARMUP_COMMITS + COMMITS),
      gaps: tally.gaps,
      commit: summarizeLatencies(commitMs),
      delivery: summarizeLatencies(tally.latenciesMs),
      frame: clients[0]?.lastRevisionFrame,
    };
  } finally {
    for (const client of clients) client.close();
    await server.stop();
  }
}

const LEGEND = `
connect s       time to open and subscribe every client, ${CONNECT_BATCH} upgrades at a time, each with the token.
deliveries      revisions received over all clients, warm-up included, of subscribers x commits.
gaps            revisions a client skipped or received twice or out of order; must be 0.
commit p50/p99  the commit call, timed in the server's thread: the durable write (an fsync) and the
                fan-out, which runs inside the call (revision listeners run before it returns), so a
                client can hold a revision before its commit call has returned.
p50..max ms     delivery latency over all measured deliveries, from just before the commit is asked
                for to a client holding the parsed revision message: the commit, the server's
                fan-out, and the clients parsing their frames one after another on one thread.
raw ws          the baseline: a plain ws WebSocketServer (perMessageDeflate off, as the server's) in
                a worker thread; per commit it serialises the server's revision message with the
                new revision and text (same keys, same size) once and sends it to every subscribed
                socket. Its commit p50/p99 is that broadcast call. No auth, store or fsync.
cowork/raw      p99 (and p50) delivery of the server over the raw broadcast at the same subscriber
                count, from the same run: what the server adds to fanning out with ws alone.`;

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
