/**
 * Text commits while an outside application works: the latency of `host.resources.commit` on a
 * `text` resource, alone and while ops on an `external` resource run back to back in an application
 * that takes BENCH_EXTERNAL_OP_MS (default 200 ms) per op. An external op holds its own resource's
 * lock, not the store, so the two rows should be close; when the store was held for the op, every
 * text commit waited for it.
 *
 * The application here is a timer standing in for Blender (the blender benchmark drives the real
 * one): what is measured is the host's side. BENCH_EXTERNAL_OPS (default 10). Asserts nothing.
 */
import { defineKind, definePlugin, type ExternalSession } from '@cowork/host';
import { openTempHost } from '@cowork/host/testkit';
import { latencyLine } from '../stats';

const OP_MS = Number(process.env.BENCH_EXTERNAL_OP_MS ?? 200);
const EXTERNAL_OPS = Number(process.env.BENCH_EXTERNAL_OPS ?? 10);
/** Text commits come every few milliseconds, as people's edits and agents' commits would. */
const PACE_MS = 2;

type Counter = { n: number };

/** An external kind whose application takes OP_MS to perform each op. */
function slowAppPlugin() {
  let value = 0;
  const kind = defineKind<Counter, { type: 'add' }>({
    name: 'bench.slowapp',
    description: 'A counter held by a slow outside application',
    revisionSemantics: 'external',
    contentSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
    opSchema: { type: 'object', properties: { type: { const: 'add' } }, required: ['type'] },
    initialContent: () => ({ n: 0 }),
    applyOp: (content) => ({ n: content.n + 1 }),
    summarize: (content) => String(content.n),
    diff: () => '',
    external: {
      async open(resource): Promise<ExternalSession<Counter, { type: 'add' }>> {
        value = resource.content.n;
        return {
          async apply() {
            await new Promise((resolve) => setTimeout(resolve, OP_MS));
            value += 1;
            return { content: { n: value } };
          },
          async observe() {
            return { content: { n: value } };
          },
          async close() {},
        };
      },
    },
  });
  return definePlugin({ name: 'bench-slowapp', version: '1.0.0', kinds: [kind as never] });
}

/** Paced text commits until `until` resolves; their latencies. */
async function textCommits(host: Awaited<ReturnType<typeof openTempHost>>, until: Promise<unknown>): Promise<number[]> {
  const { id } = await host.resources.create({ kind: 'text', operator: 'human:bench' });
  let done = false;
  void until.then(() => (done = true));
  const samples: number[] = [];
  for (let i = 0; !done; i++) {
    const started = performance.now();
    await host.resources.commit(id, { baseRevision: i, op: { type: 'append', text: 'x' }, operator: 'human:bench' });
    samples.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, PACE_MS));
  }
  return samples;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  const host = await openTempHost({ prefix: 'cowork-bench-external-', plugins: [slowAppPlugin()], externalPollMs: 0 });
  try {
    await textCommits(host, sleep(200)); // warm-up
    const alone = await textCommits(host, sleep(EXTERNAL_OPS * OP_MS));
    const scene = await host.resources.create({ kind: 'bench.slowapp', operator: 'human:bench' });
    const external = (async () => {
      for (let revision = 0; revision < EXTERNAL_OPS; revision++) {
        await host.resources.commit(scene.id, { baseRevision: revision, op: { type: 'add' }, operator: 'agent:bench' });
      }
    })();
    const during = await textCommits(host, external);
    console.log(`text commits every ${PACE_MS} ms (synchronous=FULL), alone and while an external application performs ${EXTERNAL_OPS} ops of ${OP_MS} ms back to back`);
    console.log(latencyLine('text commit, alone', alone));
    console.log(latencyLine('text commit, during external ops', during));
  } finally {
    await host.dispose();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
