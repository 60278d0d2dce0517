/**
 * The trainer plugin's costs through a real Host (a temp workspace): building a dataset from
 * 1,000 generated trajectories (trainer_collect then trainer_filter, per 1,000 trajectories) against
 * the raw read and JSON.parse of the same record files; training steps per second of a short round
 * (python/train.py on one thread, batch 8, timed from its start line to its done line, so torch's
 * import is left out and its checkpoint writes are in); and the served model's tokens per second
 * (python/serve.py, greedy decoding of up to 64 pieces with a key/value cache, after one warm-up request). Baseline, measured in
 * the same run: trainer_baseline.py, the same GPT driven by torch directly on the same thread count
 * (a bare training loop on the same batches, cut before its clock starts, and in-process greedy decoding with serve.py's decoder and without its cache).
 *
 * BENCH_TRAINER_TRAJECTORIES (default 1000), BENCH_TRAINER_STEPS (default 30),
 * BENCH_TRAINER_REQUESTS (default 3). Prints figures; asserts nothing. Needs `npm run build -w
 * @cowork/plugin-trainer` and Debian's python3-torch.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Json } from '@cowork/host';
import type { Host } from '@cowork/host/embed';
import { openTempHost } from '@cowork/host/testkit';
import { plugin, PYTHON, serveScript, threadEnv } from '@cowork/plugin-trainer';

const TRAJECTORIES = Number(process.env.BENCH_TRAINER_TRAJECTORIES ?? 1000);
const STEPS = Number(process.env.BENCH_TRAINER_STEPS ?? 30);
const REQUESTS = Number(process.env.BENCH_TRAINER_REQUESTS ?? 3);
const BATCH = 8;
const THREADS = 1;
const MAX_TOKENS = 64;

interface Baseline {
  stepsPerSecond: number;
  trainSeconds: number;
  tokens: number;
  decodeSeconds: number;
  tokensPerSecond: number;
  uncachedTokensPerSecond: number;
}

async function call(host: Host, name: string, input: unknown): Promise<Record<string, Json>> {
  const result = await host.registry.tool(name)!.tool.handler(input as never, { operator: 'human:bench', signal: new AbortController().signal, host: { workspaceDir: host.workspaceDir, resources: host.resources } });
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  return result.content as Record<string, Json>;
}

/** Runs a command, calling `onLine` with each stdout line and the time it came; resolves on exit. */
function run(command: string, args: string[], cwd: string, onLine: (line: string, at: number, child: ChildProcess) => void, env: Readonly<Record<string, string>> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
    createInterface({ input: child.stdout }).on('line', (line) => onLine(line, performance.now(), child));
    child.on('error', reject);
    child.on('exit', (code) => resolve(code ?? -1));
  });
}

const fmt = (n: number, digits = 1) => n.toFixed(digits);

/** The baseline: trainer_baseline.py (the same GPT, torch directly), its one JSON line. */
async function baseline(data: string): Promise<Baseline> {
  let result: Baseline | undefined;
  const script = join(__dirname, 'trainer_baseline.py');
  const args = [script, '--data', data, '--steps', String(STEPS), '--batch', String(BATCH), '--threads', String(THREADS), '--requests', String(REQUESTS), '--tokens', String(MAX_TOKENS)];
  // The thread pools as the trainer's jobs have them, so both sides run alike.
  const code = await run(PYTHON, args, dirname(script), (line) => {
    if (line.startsWith('{')) result = JSON.parse(line) as Baseline;
  }, threadEnv(THREADS));
  if (code !== 0 || !result) throw new Error(`trainer_baseline.py exited ${code}`);
  return result;
}

async function main(): Promise<void> {
  const host = await openTempHost({ plugins: [plugin], prefix: 'bench-trainer-' });
  try {
    // 1. Dataset building.
    await call(host, 'trainer_generate', { family: 'read_value', split: 'train', count: TRAJECTORIES, seed: 1, out: 'runs/train' });
    const recordsDir = join(host.workspaceDir, 'runs', 'train', 'records');
    let started = performance.now();
    let parsed = 0;
    for (const f of readdirSync(recordsDir)) parsed += JSON.parse(readFileSync(join(recordsDir, f), 'utf8')) === null ? 0 : 1;
    const parseMs = performance.now() - started;
    started = performance.now();
    const { datasetId } = (await call(host, 'trainer_collect', { runs: ['runs/train'] })) as { datasetId: string };
    const collectMs = performance.now() - started;
    started = performance.now();
    await call(host, 'trainer_filter', { datasetId });
    const filterMs = performance.now() - started;
    const per = 1000 / parsed;
    console.log(`trainer dataset (${parsed} trajectories), per 1,000 trajectories:`);
    console.log(`  raw read + JSON.parse of the records   ${fmt(parseMs * per)} ms   (baseline)`);
    console.log(`  trainer_collect                        ${fmt(collectMs * per)} ms   (${fmt(collectMs / parseMs)}x the baseline)`);
    console.log(`  trainer_filter (4 filters, BM25)       ${fmt(filterMs * per)} ms`);
    console.log(`  collect + filter                       ${fmt((collectMs + filterMs) * per)} ms   (${fmt((collectMs + filterMs) / parseMs)}x the baseline)`);

    // 2. Training steps per second (the baseline first, for both training and serving).
    const { roundId } = (await call(host, 'trainer_plan_round', { name: 'bench', datasetId, settings: { steps: STEPS, batch: BATCH, lr: 0.003, threads: THREADS } })) as { roundId: string };
    const job = (await call(host, 'trainer_prepare_round', { roundId })).job as unknown as { command: string; args: string[]; cwd: string; env: Record<string, string> };
    const base = await baseline(join(host.workspaceDir, job.cwd, 'train.jsonl'));
    let t0 = 0;
    let t1 = 0;
    const wall = performance.now();
    const code = await run(job.command, job.args, join(host.workspaceDir, job.cwd), (line, at) => {
      if (line.includes('"event": "start"')) t0 = at;
      if (line.includes('"event": "done"')) t1 = at;
    }, job.env);
    if (code !== 0 || t1 === 0) throw new Error(`train.py exited ${code}`);
    const trainS = (t1 - t0) / 1000;
    const steps = STEPS / trainS;
    console.log(`trainer training (${STEPS} steps, batch ${BATCH}, context 256, ${THREADS} thread):`);
    console.log(`  ${fmt(base.stepsPerSecond, 2)} steps/s   (baseline: bare torch loop, the same batches, cut before its clock; ${fmt((base.trainSeconds / STEPS) * 1000, 0)} ms a step)`);
    console.log(`  ${fmt(steps, 2)} steps/s   (${fmt((trainS / STEPS) * 1000, 0)} ms a step; ${fmt((performance.now() - wall) / 1000)} s with start-up; ${fmt(steps / base.stepsPerSecond, 2)}x the baseline)`);
    const sync = await call(host, 'trainer_sync_round', { roundId });
    const checkpoint = sync.checkpoint as { id: string; hash: string };
    const file = (await host.resources.get(checkpoint.id)).content as { file: string };

    // 3. Served tokens per second.
    const figures: { tokens: number; ms: number }[] = [];
    await run(PYTHON, [serveScript(), '--checkpoint', join(host.workspaceDir, file.file), '--port', '0', '--max-tokens', String(MAX_TOKENS), '--threads', String(THREADS)], host.workspaceDir, (line, _at, child) => {
      const event = JSON.parse(line) as { event: string; baseUrl?: string };
      if (event.event !== 'listening') return;
      void (async () => {
        try {
          for (let i = 0; i <= REQUESTS; i++) {
            const s = performance.now();
            const response = await fetch(`${event.baseUrl}/chat/completions`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ model: 'bench', messages: [{ role: 'user', content: `Read the billing settings in res_${i} and tell me its port.` }], max_tokens: MAX_TOKENS }),
            });
            const body = (await response.json()) as { usage: { completion_tokens: number } };
            if (i > 0) figures.push({ tokens: body.usage.completion_tokens, ms: performance.now() - s });
          }
        } finally {
          child.kill('SIGTERM');
        }
      })();
    }, threadEnv(THREADS));
    const tokens = figures.reduce((a, f) => a + f.tokens, 0);
    const ms = figures.reduce((a, f) => a + f.ms, 0);
    const served = (tokens / ms) * 1000;
    console.log(`trainer serving (${figures.length} requests after 1 warm-up, greedy with a key/value cache, ${THREADS} thread; a token is one of the model's pieces):`);
    console.log(`  ${fmt(base.tokensPerSecond)} tokens/s   (baseline: in-process greedy decoding with serve.py's decoder, no HTTP; ${base.tokens} tokens in ${fmt(base.decodeSeconds * 1000, 0)} ms)`);
    console.log(`  ${fmt(base.uncachedTokensPerSecond)} tokens/s   (for scale: in-process, the whole context re-run for every token, no cache)`);
    console.log(`  ${fmt(served)} tokens/s   (${tokens} tokens in ${fmt(ms, 0)} ms, HTTP included; ${fmt(served / base.tokensPerSecond, 2)}x the baseline)`);
  } finally {
    await host.dispose();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
