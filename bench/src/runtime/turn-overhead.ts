/**
 * The agent runtime's own cost per turn, and the time to build a context as the log grows.
 *
 * 1. Turn overhead: Main runs N turns, each one cheap tool call, against a model that answers at
 *    once. Two model paths: an in-process provider (no network: pure runtime cost, i.e. delivery,
 *    context building, saving the turn and the tool result with synchronous=FULL) and the scripted
 *    OpenAI-compatible HTTP server on loopback (what a local model server adds at zero latency).
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
  loadRecentContext,
  tokenizerFor,
  type ModelProvider,
  type ModelRequest,
  type ModelResponse,
  type Tokenizer,
  type ToolSpec,
} from '@cowork/host/embed';
import { openTempHost, reply, startScriptedModelServer } from '@cowork/host/testkit';
import { summarizeLatencies } from '../stats';

const TURNS = Number(process.env.BENCH_TURNS ?? 300);
const SIZES = [100, 1_000, 10_000];
const BUDGET_TOKENS = 24_000;

/** Answers every turn at once: a tool call until the last turn, then `finish`. */
class InstantProvider implements ModelProvider {
  readonly name = 'instant';
  readonly maxContextTokens = 32_000;
  private turn = 0;

  constructor(private readonly turns: number) {}

  async complete(request: ModelRequest): Promise<ModelResponse> {
    // A compaction request (no tools offered) gets a summary, as a real model gives one.
    if (request.tools.length === 0) return this.answer({ content: 'Summary: the agent listed resources, turn after turn.', toolCalls: [] }, 'stop');
    this.turn++;
    const done = this.turn >= this.turns;
    const call = done
      ? { id: `f${this.turn}`, name: 'finish', arguments: '{"summary":"done"}' }
      : { id: `c${this.turn}`, name: 'list_resources', arguments: '{}' };
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

async function turnOverhead(label: string, makeProvider: () => Promise<{ provider: ModelProvider; close: () => Promise<void> }>): Promise<void> {
  const host = await openTempHost({ prefix: 'cowork-bench-turns-' });
  const { provider, close } = await makeProvider();
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
    const taskId = await runtime.startTask('benchmark turns');
    const stats = (): { durable: number; transactions: number } => (host.store as unknown as { groupCommitStats: { durable: number; transactions: number } }).groupCommitStats;
    const before = stats();
    const started = performance.now();
    await runtime.runTask(taskId);
    const after = stats();
    turnStarts.push(performance.now());
    const perTurn = turnStarts.slice(1).map((t, i) => t - turnStarts[i]!);
    const s = summarizeLatencies(perTurn.slice(5)); // leave out warm-up turns
    const total = performance.now() - started;
    // A batch that wrote rows is one COMMIT that fsyncs (synchronous=FULL); one that wrote nothing does not.
    const perTurn2 = (n: number): string => (n / TURNS).toFixed(1).padStart(9);
    console.log(
      `${label.padEnd(34)} ${String(TURNS).padStart(6)}  ${s.p50Ms.toFixed(2).padStart(8)}  ${s.p99Ms.toFixed(2).padStart(8)}  ${(TURNS / (total / 1000)).toFixed(0).padStart(8)}` +
        `${perTurn2(after.transactions - before.transactions)}${perTurn2(after.durable - before.durable)}`,
    );
  } finally {
    await runtime.close();
    await close();
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

async function main(): Promise<void> {
  console.log(`agent runtime: time per turn (ms), ${TURNS} turns of one tool call each, synchronous=FULL`);
  console.log(`${'model'.padEnd(34)} ${'turns'.padStart(6)}  ${'p50'.padStart(8)}  ${'p99'.padStart(8)}  ${'turns/s'.padStart(8)}${'txns/turn'.padStart(10)}${'fsyncs/turn'.padStart(12)}`);
  await turnOverhead('in-process, zero latency', async () => ({ provider: new InstantProvider(TURNS), close: async () => undefined }));
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

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
