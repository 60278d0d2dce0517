/**
 * The agent runtime's own cost per turn, and the time to build a context as the log grows.
 *
 * 1. Turn overhead: Main runs N turns, each one cheap tool call, against a model that answers at
 *    once. Two model paths: an in-process provider (no network: pure runtime cost, i.e. delivery,
 *    context building, saving the turn and the tool result with synchronous=FULL) and the scripted
 *    OpenAI-compatible HTTP server on loopback (what a local model server adds at zero latency).
 *    The in-process path runs first as a fresh process's first task (the tokenizer's vocabulary
 *    loaded, code compiled, the garbage collector's first promotions), twice, each in a process of
 *    its own: with Node's default background pool of 4 threads, and with the pool sized as
 *    `cowork serve` runs it (tools/serve.sh: one core left to the event loop). Every other row runs
 *    in one more process started as the server starts. There the in-process path runs on a host
 *    that has just served another task of WARM_UP_TURNS turns, as a host
 *    that has been running serves one task after another. Their calls are read-only
 *    (`list_resources`), so each turn is saved in one write that waits for no flush; a third warm
 *    task commits to a resource each turn, which waits for three. Baselines, in the same run: a
 *    read-only turn's writes alone (a model call and two conversation rows in one transaction)
 *    written by hand with better-sqlite3 into the same schema, under NORMAL and under FULL (the
 *    floor the disk sets for a turn flushed before the next one starts). The columns count the
 *    store's transactions and flushed commits per turn, the WAL checkpoints its thread ran (and
 *    those that held writes to start the WAL again), and the garbage-collection pauses that began
 *    inside the measured turns. A last warm task, untimed, counts the bytes a turn allocates (V8's
 *    sampling heap profiler, freed objects included). The rest of the tail (bench/README.md): the
 *    engine optimises a function called once a turn only after hundreds of turns, on background
 *    threads, which on two cores compete with the turns for the CPU unless the pool leaves the
 *    event loop a core; then the collector's scavenges, the task's compaction and its finish.
 * 2. Context build: a conversation of 100, 1,000 and 10,000 logged messages; the time to load the
 *    newest messages within the budget and build the context, with 20 tool definitions in the
 *    budget. It should stay flat. Counted two ways side by side: with the tokenizer budgets use
 *    (o200k_base, gpt-tokenizer; a warm cache after the first build, and that first build alone)
 *    and with the old estimate, characters divided by four.
 *
 * Prints figures; asserts nothing.
 */
import { type Json } from '@cowork/host';
import {
  AgentRuntime,
  OpenAiCompatibleProvider,
  buildContext,
  charEstimateTokenizer,
  currentNodePool,
  NODE_DEFAULT_POOL_SIZE,
  loadRecentContext,
  serveNodeFlags,
  tokenizerFor,
  type ModelProvider,
  type ModelRequest,
  type ModelResponse,
  type Tokenizer,
  type ToolSpec,
} from '@cowork/host/embed';
import { openTempHost, reply, startScriptedModelServer, type TempHost } from '@cowork/host/testkit';
import BetterSqlite3 from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Session } from 'node:inspector/promises';
import { PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { summarizeLatencies } from '../stats';
import { storeCounters, type StoreCounters } from './store-counters';

/**
 * Turns per row. With 300, p99 was the third slowest turn, and one scavenge (one in about 250
 * turns) and the task's finishing turn decided it; at 1,000 it is the tenth, and the max column
 * keeps the slowest turn (usually a scavenge) in view.
 */
const TURNS = Number(process.env.BENCH_TURNS ?? 1_000);
/** Turns of the unmeasured task the warm host serves before the measured one. */
const WARM_UP_TURNS = 1_700;
const SIZES = [100, 1_000, 10_000];
/** The width of the turn table's first column. */
const LABEL_WIDTH = 52;
const BUDGET_TOKENS = 24_000;

/** The tool call of a turn that is not a task's last: its name and JSON arguments. */
type TurnCall = (turn: number) => { readonly name: string; readonly arguments: string };

/** A read-only call: the turn's answer and result are saved in one write that waits for no flush. */
const listResources: TurnCall = () => ({ name: 'list_resources', arguments: '{}' });

/** Answers every turn at once: `call` until a task's last turn, then `finish`. */
class InstantProvider implements ModelProvider {
  readonly name = 'instant';
  readonly maxContextTokens = 32_000;
  private turn = 0;
  /** The turn (counted across tasks) on which each task finishes. */
  private readonly lastTurns = new Set<number>();

  /** `turns`: each task's turns, in the order the tasks run. */
  constructor(
    turns: readonly number[],
    private readonly call: TurnCall = listResources,
  ) {
    let sum = 0;
    for (const count of turns) this.lastTurns.add((sum += count));
  }

  async complete(request: ModelRequest): Promise<ModelResponse> {
    // A compaction request (no tools offered) gets a summary, as a real model gives one.
    if (request.tools.length === 0) return this.answer({ content: 'Summary: the agent listed resources, turn after turn.', toolCalls: [] }, 'stop');
    this.turn++;
    const done = this.lastTurns.has(this.turn);
    const call = done ? { id: `f${this.turn}`, name: 'finish', arguments: '{"summary":"done"}' } : { id: `c${this.turn}`, ...this.call(this.turn) };
    return this.answer({ content: null, toolCalls: [call] }, 'tool_calls');
  }

  private answer(message: ModelResponse['message'], finishReason: ModelResponse['finishReason']): ModelResponse {
    return {
      message,
      finishReason,
      usage: { inputTokens: 100, outputTokens: 10, totalTokens: 110 },
      model: 'instant',
      latencyMs: 0,
      attempts: 1,
    };
  }
}

/** Garbage-collection pauses as the runtime reports them (every kind: scavenges and full collections). */
const gcPauses: PerformanceEntry[] = [];
new PerformanceObserver((list) => gcPauses.push(...list.getEntries())).observe({ entryTypes: ['gc'] });

/** The pauses that began inside [from, to) and their total, for the turns measured there. */
function gcDuring(from: number, to: number): string {
  const inside = gcPauses.filter((e) => e.startTime >= from && e.startTime < to);
  const ms = inside.reduce((sum, e) => sum + e.duration, 0);
  return `${String(inside.length).padStart(5)} ${ms.toFixed(1).padStart(7)}`;
}

/** A turn's store work over the measured turns: totals, printed per turn (checkpoints as totals). */
interface StoreWork {
  readonly transactions: number;
  readonly fsyncs: number;
  /** WAL checkpoints run on the store's thread, and those that held writes to start the WAL again. */
  readonly checkpoints: number;
  readonly restarts: number;
}

/** One row of the turn table. */
function row(label: string, samples: readonly number[], totalMs: number, work: StoreWork, gc: string): void {
  const s = summarizeLatencies(samples);
  const perTurn = (n: number, width: number): string => (n / TURNS).toFixed(1).padStart(width);
  console.log(
    `${label.padEnd(LABEL_WIDTH)} ${String(TURNS).padStart(6)}  ${s.p50Ms.toFixed(2).padStart(8)}  ${s.p99Ms.toFixed(2).padStart(8)}  ${s.maxMs.toFixed(2).padStart(8)}  ${(TURNS / (totalMs / 1000)).toFixed(0).padStart(8)}` +
      `${perTurn(work.transactions, 10)}${perTurn(work.fsyncs, 12)}  ${`${work.checkpoints}/${work.restarts}`.padStart(8)}  ${gc}`,
  );
}

/** What the store did between two readings of its counters. */
function storeWork(before: StoreCounters, after: StoreCounters): StoreWork {
  return {
    transactions: after.groupCommitStats.transactions - before.groupCommitStats.transactions,
    fsyncs: after.groupCommitStats.durable - before.groupCommitStats.durable,
    checkpoints: after.checkpointStats.checkpoints - before.checkpointStats.checkpoints,
    restarts: after.checkpointStats.restarts - before.checkpointStats.restarts,
  };
}

/** A model for the turn table, and what to do when its row is done. */
interface TurnModel {
  readonly provider: ModelProvider;
  /** Checks what the turns did (a benchmark that measured failing calls would print a lie) and closes. */
  readonly close: () => Promise<void>;
}

/**
 * Times TURNS turns of one task. With `warmUp`, the same host and runtime first run a task,
 * unmeasured (the provider decides its length), as a host that has been running serves one task
 * after another. With `measure: 'allocations'`, the task's bytes allocated instead of its times.
 */
async function turnOverhead(
  label: string,
  makeModel: (host: TempHost) => Promise<TurnModel>,
  { warmUp = false, measure = 'time' }: { readonly warmUp?: boolean; readonly measure?: 'time' | 'allocations' } = {},
): Promise<void> {
  const host = await openTempHost({ prefix: 'cowork-bench-turns-' });
  const { provider, close } = await makeModel(host);
  const turnStarts: number[] = [];
  const runtime = new AgentRuntime({
    host,
    provider,
    maxOutputTokens: 1000,
    onEvent: (e) => {
      if (e.type === 'turn') turnStarts.push(performance.now());
    },
  });
  try {
    if (warmUp) await runtime.runTask(await runtime.startTask('warm-up turns'));
    turnStarts.length = 0;
    const taskId = await runtime.startTask('benchmark turns');
    const counters = (): StoreCounters => {
      const counted = storeCounters(host.store);
      if (!counted) throw new Error('the turn table reads the SQLite store\'s counters, and this store keeps none');
      return counted;
    };
    if (measure === 'allocations') {
      const bytes = await allocatedDuring(() => runtime.runTask(taskId));
      console.log(`${label.padEnd(LABEL_WIDTH)} ${String(TURNS).padStart(6)}  ${(bytes / TURNS / 1024).toFixed(1).padStart(8)} KB allocated per turn`);
      return;
    }
    const before = counters();
    const started = performance.now();
    await runtime.runTask(taskId);
    const after = counters();
    turnStarts.push(performance.now());
    const perTurn = turnStarts.slice(1).map((t, i) => t - turnStarts[i]!);
    const total = performance.now() - started;
    // The first 5 turns are left out (their first compilations); the pauses counted are the measured turns'.
    const gc = gcDuring(turnStarts[5]!, turnStarts[turnStarts.length - 1]!);
    row(label, perTurn.slice(5), total, storeWork(before, after), gc);
  } finally {
    await runtime.close();
    await close();
    await host.dispose();
  }
}

/**
 * A model whose turns each commit one op to a text resource, from the revision the last commit
 * made: a turn that changes something, so its answer is saved (and flushed) before the commit runs,
 * the commit is flushed, and so is the result. At the end the resource must hold every commit.
 */
async function committingModel(host: TempHost, ...turns: number[]): Promise<TurnModel> {
  const { id } = await host.resources.create({ kind: 'text', operator: 'human:bench' });
  let commits = 0;
  const provider = new InstantProvider(turns, () => ({ name: 'commit_resource', arguments: JSON.stringify({ resourceId: id, baseRevision: commits++, op: { type: 'append', text: 'x' } }) }));
  return {
    provider,
    close: async () => {
      const { revision } = await host.resources.get(id);
      if (revision !== commits) throw new Error(`the committing turns made ${revision} revisions, not ${commits}: some commits failed`);
    },
  };
}

/**
 * Bytes allocated while `run` runs, estimated by V8's sampling heap profiler with the objects the
 * collector freed kept in the profile (each sample scaled to the allocations it stands for). A
 * turn's allocations decide how often it meets a scavenge; the sampling slows the turns, so this
 * runs apart from the timed rows.
 */
async function allocatedDuring(run: () => Promise<unknown>): Promise<number> {
  const session = new Session();
  session.connect();
  try {
    await session.post('HeapProfiler.startSampling', { samplingInterval: 512, includeObjectsCollectedByMinorGC: true, includeObjectsCollectedByMajorGC: true } as never);
    await run();
    const { profile } = (await session.post('HeapProfiler.stopSampling')) as { profile: { head: SamplingNode } };
    const sum = (node: SamplingNode): number => node.children.reduce((total, child) => total + sum(child), node.selfSize);
    return sum(profile.head);
  } finally {
    session.disconnect();
  }
}

interface SamplingNode {
  readonly selfSize: number;
  readonly children: readonly SamplingNode[];
}

/**
 * The baseline: a read-only turn's rows (its model call, the assistant's answer, the tool's result)
 * written by hand in one transaction, into the schema the host created, on a connection of its own:
 * with `FULL`, each commit flushed, the floor the disk sets for a turn durable before the next
 * one starts; with `NORMAL`, as the host now saves such a turn (flushed by a later commit or a
 * checkpoint). Nothing else runs between the writes: what is left is SQLite and the disk.
 */
async function turnWritesByHand(synchronous: 'FULL' | 'NORMAL'): Promise<void> {
  const host = await openTempHost({ prefix: 'cowork-bench-turn-writes-' });
  const db = new BetterSqlite3(join(host.dir, 'cowork.db'));
  try {
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${synchronous}`);
    const modelCall = db.prepare(
      `INSERT INTO model_calls (task_id, agent_id, turn, model, input_tokens, output_tokens, finish_reason, latency_ms, attempts, created_at)
       VALUES ('task_bench', 'main', ?, 'instant', 100, 10, 'tool_calls', 0, 1, ?)`,
    );
    const message = db.prepare(
      `INSERT INTO conversation (task_id, agent_id, seq, turn, message, source_message_id, created_at)
       VALUES ('task_bench', 'main', (SELECT COALESCE(MAX(seq), 0) + 1 FROM conversation WHERE task_id = 'task_bench' AND agent_id = 'main'), ?, ?, NULL, ?)`,
    );
    const begin = db.prepare('BEGIN IMMEDIATE');
    const commit = db.prepare('COMMIT');
    const samples: number[] = [];
    const started = performance.now();
    for (let turn = 1; turn <= TURNS; turn++) {
      const start = performance.now();
      const at = new Date().toISOString();
      begin.run();
      modelCall.run(turn, at);
      message.run(turn, JSON.stringify({ role: 'assistant', content: null, toolCalls: [{ id: `c${turn}`, name: 'list_resources', arguments: '{}' }] }), at);
      message.run(turn, JSON.stringify({ role: 'tool', toolCallId: `c${turn}`, content: '{"resources":[],"next":null}' }), at);
      commit.run();
      samples.push(performance.now() - start);
    }
    const total = performance.now() - started;
    const work = { transactions: TURNS, fsyncs: synchronous === 'FULL' ? TURNS : 0, checkpoints: 0, restarts: 0 };
    row(`baseline: its writes by hand, ${synchronous}`, samples.slice(5), total, work, gcDuring(started, performance.now()));
  } finally {
    db.close();
    await host.dispose();
  }
}

const TOOLS: ToolSpec[] = Array.from({ length: 20 }, (_, i) => ({
  name: `tool_${i}`,
  description: `Tool ${i}: reads or changes a resource of the workspace and reports what it did. `.repeat(3),
  inputSchema: { type: 'object', properties: { resourceId: { type: 'string' }, revision: { type: 'integer' } }, required: ['resourceId'] },
}));

async function contextBuild(size: number): Promise<void> {
  const host = await openTempHost({ synchronous: 'NORMAL', prefix: 'cowork-bench-context-' });
  try {
    const taskId = 'task_bench';
    await host.store.transaction(async (tx) => {
      for (let i = 0; i < size; i++) {
        const message: Json =
          i % 2 === 0
            ? { role: 'assistant', content: null, toolCalls: [{ id: `c${i}`, name: 'list_resources', arguments: '{}' }] }
            : { role: 'tool', toolCallId: `c${i - 1}`, content: `result ${i} ${'x'.repeat(200)}` };
        await tx.conversation.append({ taskId, agentId: 'main', turn: Math.floor(i / 2) + 1, message, sourceMessageId: null, createdAt: new Date().toISOString() });
      }
    });
    const once = async (tokenizer: Tokenizer): Promise<number> => {
      const start = performance.now();
      const { messages, summary, omitted } = await loadRecentContext(host.store, taskId, 'main', BUDGET_TOKENS, tokenizer);
      buildContext({ instructions: 'bench', memory: null, projection: null, summary, messages, omittedBefore: omitted, budgetTokens: BUDGET_TOKENS, tools: TOOLS, tokenizer });
      return performance.now() - start;
    };
    const run = async (tokenizer: Tokenizer) => {
      const samples: number[] = [];
      for (let i = 0; i < 60; i++) samples.push(await once(tokenizer));
      return summarizeLatencies(samples.slice(10));
    };
    const old = await run(charEstimateTokenizer);
    // A fresh tokenizer per size would need a fresh cache; the messages differ per size only by
    // their numbers, so the first build here is close to a cold one.
    const tokenizer = tokenizerFor('gpt-4o');
    const first = await once(tokenizer);
    const now = await run(tokenizer);
    const ms = (v: number) => v.toFixed(2).padStart(7);
    console.log(`${String(size).padStart(8)}   ${ms(old.p50Ms)} ${ms(old.p99Ms)}   ${ms(now.p50Ms)} ${ms(now.p99Ms)}   ${ms(first)}`);
  } finally {
    await host.dispose();
  }
}

/**
 * The turn table, run in fresh processes so that each cold row is a process's first task: the
 * cold row with Node's default background pool (4 threads) and with the pool sized as
 * `cowork serve` runs (tools/serve.sh, cli/node-pool.ts), then every other row in one process
 * started as the server starts.
 */
async function main(): Promise<void> {
  console.log(`agent runtime: time per turn (ms), ${TURNS} turns of one tool call each, synchronous=FULL`);
  console.log(
    `${'model'.padEnd(LABEL_WIDTH)} ${'turns'.padStart(6)}  ${'p50'.padStart(8)}  ${'p99'.padStart(8)}  ${'max'.padStart(8)}  ${'turns/s'.padStart(8)}${'txns/turn'.padStart(10)}${'fsyncs/turn'.padStart(12)}  ${'ckpt/rst'.padStart(8)}  ${'gc pauses, ms'}`,
  );
  const served = serveNodeFlags();
  // Node's default given explicitly: a pool in NODE_OPTIONS would override it otherwise.
  part('cold', [`--v8-pool-size=${NODE_DEFAULT_POOL_SIZE}`]);
  part('cold', served);
  part('rest', served);
}

/** Runs one part of the table in a new process with `flags` (tsx's loader kept), its rows printed as they come. */
function part(name: 'cold' | 'rest', flags: readonly string[]): void {
  const child = spawnSync(process.execPath, [...process.execArgv, ...flags, process.argv[1]!], { stdio: 'inherit', env: { ...process.env, BENCH_TURNS_PART: name } });
  if (child.status !== 0) throw new Error(`the ${name} part of the turn table failed (exit ${child.status ?? child.signal})`);
}

/** The pool this process runs, for a row's label. */
function poolLabel(): string {
  const { threads } = currentNodePool();
  return `pool ${threads}${threads === NODE_DEFAULT_POOL_SIZE ? " (Node's default)" : ''}`;
}

/** A model answering at once, for tasks of `turns` turns each. */
const instant =
  (...turns: number[]) =>
  async (): Promise<TurnModel> => ({ provider: new InstantProvider(turns), close: async () => undefined });

async function coldPart(): Promise<void> {
  await turnOverhead(`in-process, cold process, ${poolLabel()}`, instant(TURNS));
}

async function restPart(): Promise<void> {
  await turnOverhead(`in-process, warm (after ${TURNS + WARM_UP_TURNS} turns), ${poolLabel()}`, instant(WARM_UP_TURNS, TURNS), { warmUp: true });
  await turnWritesByHand('NORMAL');
  await turnWritesByHand('FULL');
  await turnOverhead('in-process, warm, a commit each turn', (host) => committingModel(host, WARM_UP_TURNS, TURNS), { warmUp: true });
  await turnOverhead('in-process, warm, sampled allocations', instant(WARM_UP_TURNS, TURNS), { warmUp: true, measure: 'allocations' });
  await turnOverhead('HTTP scripted server on loopback', async () => {
    let turn = 0;
    const server = await startScriptedModelServer(() => {
      turn++;
      return turn >= TURNS
        ? reply.toolCalls([{ name: 'finish', arguments: { summary: 'done' } }])
        : reply.toolCalls([{ name: 'list_resources', arguments: {} }]);
    });
    const provider = new OpenAiCompatibleProvider({ baseUrl: server.baseUrl, model: 'scripted', maxContextTokens: 32_000 });
    return { provider, close: () => server.close() };
  });
  console.log(`\ncontext build (load the newest messages within a ${BUDGET_TOKENS}-token budget, then build, ${TOOLS.length} tool definitions counted), ms, 50 samples each:`);
  console.log(`${''.padStart(8)}   ${'chars/4'.padEnd(15)}   ${'tokenizer (o200k)'.padEnd(15)}   ${'first'.padStart(7)}`);
  console.log(`${'messages'.padStart(8)}   ${'p50'.padStart(7)} ${'p99'.padStart(7)}   ${'p50'.padStart(7)} ${'p99'.padStart(7)}   ${'build'.padStart(7)}`);
  for (const size of SIZES) await contextBuild(size);
}

const parts: Record<string, () => Promise<void>> = { cold: coldPart, rest: restPart };
(parts[process.env.BENCH_TURNS_PART ?? ''] ?? main)().catch((error) => {
  console.error(error);
  process.exit(1);
});
