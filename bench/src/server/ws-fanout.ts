/**
 * WebSocket fan-out latency of the real server: one text resource, 100 and then 1,000 live
 * clients subscribed to it, then a run of commits. Each commit appends its send time (epoch ms),
 * so every client computes delivery latency as its receive time minus that. Prints p50, p99 and
 * max over all deliveries, and counts revisions a client missed or got out of order (must be 0).
 * Asserts nothing about time.
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

interface FanoutResult {
  readonly subscribers: number;
  readonly connectMs: number;
  readonly delivered: number;
  readonly expected: number;
  readonly gaps: number;
  readonly commit: LatencySummary;
  readonly delivery: LatencySummary;
}

async function main(): Promise<void> {
  console.log(
    `WebSocket fan-out: one text resource, ${COMMITS} commits after ${WARMUP_COMMITS} warm-up, each made once every ` +
      'subscriber has the one before; server in a worker thread, all clients on the main thread; synchronous=FULL (the default)',
  );
  console.log(machineLine());
  const results: FanoutResult[] = [];
  for (const subscribers of SIZES) results.push(await measure(subscribers));
  const rows = results.map((r) => [
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
  console.log(formatTable(['subscribers', 'connect s', 'deliveries', 'gaps', 'commit p50 ms', 'commit p99 ms', 'p50 ms', 'p99 ms', 'max ms'], rows));
  console.log(LEGEND);
}

async function measure(subscribers: number): Promise<FanoutResult> {
  const server = await ServerThread.start('cowork');
  const tally = new DeliveryTally(subscribers);
  const clients: Subscriber[] = [];
  try {
    const [resource] = (await server.request({ type: 'create', count: 1 }, 'created')).resources;
    if (!resource) throw new Error('the server created no resource');
    const wsUrl = `${server.url.replace(/^http/, 'ws')}/ws`;

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
      const committed = server.request({ type: 'commit', resourceId: resource.id, text: epochNow().toFixed(3) }, 'committed');
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
      subscribers,
      connectMs,
      delivered: tally.deliveries(first, last),
      expected: subscribers * (WARMUP_COMMITS + COMMITS),
      gaps: tally.gaps,
      commit: summarizeLatencies(commitMs),
      delivery: summarizeLatencies(tally.latenciesMs),
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
                fan-out, and the clients parsing their frames one after another on one thread.`;

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
