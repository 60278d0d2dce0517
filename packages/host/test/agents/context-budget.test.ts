/**
 * Invariants: the context of a 10,000-turn task stays within the budget as counted by the model
 * family's tokenizer (recounted here with gpt-tokenizer's own encode, independently of the host's
 * counting), and the tool definitions and memory.md are inside that count: larger tool definitions
 * or a larger memory leave room for fewer messages. The count the loop reports for a turn is the
 * count of the request it sends, tools included.
 */
import { encode as encodeCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { encode as encodeO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { buildContext, type BuiltContext } from '../../src/agents/context-builder';
import { loadRecentContext } from '../../src/agents/context-loader';
import { charEstimateTokenizer, tokenizerFor } from '../../src/models/tokenizer';
import type { ChatMessage, ToolSpec } from '../../src/models/types';
import type { WireChatRequest } from '../../src/models/wire';
import type { Json } from '../../src/store/records';
import { openTempHost, type TempHost } from '../../src/testkit/temp-host';
import { reply } from '../../src/testkit/scripted-model-server';
import { startRuntime, type RuntimeHarness } from './runtime-harness';

const TURNS = 10_000;
const BUDGET = 8_000;
const MODEL = 'gpt-4o';

/** Tool results of the kinds where characters divided by four is furthest off. */
const RESULTS = [
  '代理读取资源，提出修改，并在它读取的修订版本上提交，这样就不会覆盖别人没见过的工作。',
  'const cost = units[first - 1].reduce((s, m) => s + count(m), 0); if (t + cost > budget) break;',
  '31415926535897932384626433832795028841971693993751058209749445923078164062862089986280348253421170679',
  'The agent read the resource and committed its edit on the revision it read.',
];

/** An independent count of a request as sent on the wire, with gpt-tokenizer's own encode (o200k unless told). */
function wireTokens(body: Pick<WireChatRequest, 'messages' | 'tools'>, encode: typeof encodeO200k = encodeO200k): number {
  const n = (text: string | null | undefined) => encode(text ?? '', { disallowedSpecial: new Set() }).length;
  let tokens = 3; // reply priming
  for (const m of body.messages as unknown as { role: string; content: string | null; tool_calls?: { id: string; function: { name: string; arguments: string } }[]; tool_call_id?: string }[]) {
    tokens += 3 + n(m.role) + n(m.content) + n(m.tool_call_id);
    for (const call of m.tool_calls ?? []) tokens += 3 + n(call.id) + n(call.function.name) + n(call.function.arguments);
  }
  if (body.tools && body.tools.length > 0) tokens += 12 + body.tools.reduce((sum, tool) => sum + 3 + n(JSON.stringify(tool)), 0);
  return tokens;
}

function wireOf(messages: readonly ChatMessage[], tools: readonly ToolSpec[]): Pick<WireChatRequest, 'messages' | 'tools'> {
  return {
    messages: messages.map((m) =>
      m.role === 'assistant'
        ? { role: 'assistant', content: m.content, tool_calls: (m.toolCalls ?? []).map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })) }
        : m.role === 'tool'
          ? { role: 'tool', tool_call_id: m.toolCallId, content: m.content }
          : { role: m.role, content: m.content },
    ) as WireChatRequest['messages'],
    tools: tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.inputSchema } })) as WireChatRequest['tools'],
  };
}

function bigTools(count: number, descriptionWords: number): ToolSpec[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `tool_${i}`,
    description: Array.from({ length: descriptionWords }, (_, w) => `word${(w * 7 + i) % 97}`).join(' '),
    inputSchema: { type: 'object', properties: { resourceId: { type: 'string', description: 'the resource to act on' }, revision: { type: 'integer' } }, required: ['resourceId'] },
  }));
}

describe('context budget counted by the tokenizer', () => {
  let host: TempHost;
  const taskId = 'task_long';

  beforeAll(async () => {
    host = await openTempHost({ prefix: 'cowork-context-budget-' });
    const at = new Date().toISOString();
    await host.store.transaction(async (tx) => {
      for (let turn = 1; turn <= TURNS; turn++) {
        const call: Json = { role: 'assistant', content: null, toolCalls: [{ id: `c${turn}`, name: 'read_resource', arguments: `{"resourceId":"res_${turn}"}` }] };
        const result: Json = { role: 'tool', toolCallId: `c${turn}`, content: `turn ${turn}: ${RESULTS[turn % RESULTS.length]!}` };
        await tx.conversation.append({ taskId, agentId: 'main', turn, message: call, sourceMessageId: null, createdAt: at });
        await tx.conversation.append({ taskId, agentId: 'main', turn, message: result, sourceMessageId: null, createdAt: at });
      }
    });
  }, 120_000);
  afterAll(() => host?.dispose());

  async function build(options: { tools?: ToolSpec[]; memory?: string | null; tokenizer?: typeof charEstimateTokenizer } = {}): Promise<BuiltContext> {
    const tokenizer = options.tokenizer ?? tokenizerFor(MODEL);
    const { messages, summary, omitted } = await loadRecentContext(host.store, taskId, 'main', BUDGET, tokenizer);
    return buildContext({
      instructions: 'You are Main, the agent of a long task.',
      memory: options.memory ?? null,
      projection: 'task: long; 0 subagents',
      summary,
      messages,
      omittedBefore: omitted,
      budgetTokens: BUDGET,
      tools: options.tools ?? [],
      tokenizer,
    });
  }

  it('keeps a 10,000-turn context within the budget as the tokenizer counts it', async () => {
    const tools = bigTools(10, 40);
    const built = await build({ tools });
    expect(built.droppedMessages).toBeGreaterThan(2 * TURNS - 1000);
    expect(built.tokens).toBeLessThanOrEqual(BUDGET);
    // Recounted independently from what the request would carry, tool definitions included.
    expect(wireTokens(wireOf(built.messages, tools))).toBe(built.tokens);
    expect(built.toolTokens).toBe(wireTokens({ messages: [], tools: wireOf([], tools).tools }) - 3);
    // The newest turn is there, calls paired with their results.
    const last = built.messages[built.messages.length - 1]!;
    expect(last).toMatchObject({ role: 'tool', toolCallId: `c${TURNS}` });
  });

  it('would overrun the same budget counting characters divided by four', async () => {
    const tools = bigTools(10, 40);
    const estimated = await build({ tools, tokenizer: charEstimateTokenizer });
    expect(estimated.tokens).toBeLessThanOrEqual(BUDGET);
    // What those messages really take with gpt-4o's tokenizer is over the budget (by about a sixth here).
    expect(wireTokens(wireOf(estimated.messages, tools))).toBeGreaterThan(BUDGET * 1.1);
  });

  it('counts the tool definitions: larger ones leave room for fewer messages', async () => {
    const small = await build({ tools: bigTools(2, 10) });
    const large = await build({ tools: bigTools(40, 60) });
    expect(large.toolTokens).toBeGreaterThan(3000);
    expect(large.tokens).toBeLessThanOrEqual(BUDGET);
    expect(small.tokens).toBeLessThanOrEqual(BUDGET);
    expect(large.messages.length).toBeLessThan(small.messages.length);
    const keptTokens = (b: BuiltContext) => b.tokens - b.toolTokens;
    expect(keptTokens(small) - keptTokens(large)).toBeGreaterThan(large.toolTokens - small.toolTokens - 200);
  });

  it('counts memory.md: a larger memory leaves room for fewer messages', async () => {
    const memory = Array.from({ length: 300 }, (_, i) => `- fact ${i}: 用户想要蓝色的图表 ${i * 7919}`).join('\n');
    const without = await build({ memory: null });
    const withMemory = await build({ memory });
    expect(withMemory.messages[0]!.content).toContain('fact 299');
    expect(withMemory.tokens).toBeLessThanOrEqual(BUDGET);
    expect(wireTokens(wireOf(withMemory.messages, []))).toBe(withMemory.tokens);
    expect(withMemory.messages.length).toBeLessThan(without.messages.length);
    expect(without.tokens - (withMemory.tokens - encodeO200k(memory).length)).toBeGreaterThan(-200);
  });
});

describe('the agent loop counts the request it sends', () => {
  let h: RuntimeHarness;
  afterEach(() => h?.dispose());

  it('reports as context tokens the count of the messages, memory and tool definitions sent', async () => {
    let turn = 0;
    h = await startRuntime(() => {
      turn++;
      if (turn === 1) return reply.toolCalls([{ name: 'update_memory', arguments: { content: '记忆: the user wants a blue chart, 1234567890123' } }]);
      if (turn <= 3) return reply.toolCalls([{ name: 'list_resources', arguments: {} }]);
      return reply.toolCalls([{ name: 'finish', arguments: { summary: 'done' } }]);
    });
    const taskId = await h.runtime.startTask('count the request');
    await expect(h.runtime.runTask(taskId)).resolves.toEqual({ status: 'done', summary: 'done' });
    const reported = h.events.flatMap((e) => (e.type === 'turn' ? [e.contextTokens] : []));
    const mainRequests = h.server.requests.filter((r) => (r.messages[0]?.content as string).startsWith('You are Main'));
    expect(reported).toHaveLength(mainRequests.length);
    // The provider's model is 'scripted': an open-model name, so cl100k_base. Each reported count
    // is the count of the request as sent, tool definitions included.
    expect(tokenizerFor('scripted').encoding).toBe('cl100k_base');
    mainRequests.forEach((request, i) => {
      expect(reported[i]).toBe(wireTokens(request, encodeCl100k));
      const toolTokens = wireTokens({ messages: [], tools: request.tools }, encodeCl100k) - 3;
      expect(toolTokens).toBeGreaterThan(500);
      expect(reported[i]! - toolTokens).toBe(wireTokens({ messages: request.messages }, encodeCl100k));
    });
    expect(JSON.stringify(mainRequests[mainRequests.length - 1]!.messages)).toContain('记忆');
  });
});
