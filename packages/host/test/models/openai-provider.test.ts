/**
 * Invariant: the HTTP provider speaks the OpenAI chat-completions wire format as a real server
 * receives it, and hands the loop what the model said unaltered: tool calls with their raw
 * argument text (invalid JSON and unknown tools included), the finish reason (a cut-off reply
 * reads `length`), and the token usage of the call (estimated and marked when the server gives none).
 */
import { encode as encodeCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { OpenAiCompatibleProvider } from '../../src/models/openai-provider';
import { reply, startScriptedModelServer, type Script, type ScriptedModelServer } from '../../src/testkit';
import { firstTurn, readTool, secondTurn } from './fixtures';

let server: ScriptedModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function providerFor(script: Script, options: { apiKey?: string } = {}): Promise<OpenAiCompatibleProvider> {
  server = await startScriptedModelServer(script);
  return new OpenAiCompatibleProvider({ baseUrl: server.baseUrl, model: 'test-model', retryBaseDelayMs: 1, ...options });
}

describe('OpenAiCompatibleProvider wire format', () => {
  it('sends messages, tool calls, tool results and tools in the OpenAI shape', async () => {
    const provider = await providerFor([reply.text('It says hello world.')]);
    await provider.complete({ ...secondTurn('call_1'), maxOutputTokens: 256, reasoningEffort: 'low' });
    expect(server!.requests).toEqual([
      {
        model: 'test-model',
        stream: false,
        max_tokens: 256,
        reasoning_effort: 'low',
        messages: [
          { role: 'system', content: 'You are Main.' },
          { role: 'user', content: 'What does res_1 say?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_resource', arguments: '{"id":"res_1"}' } }],
          },
          { role: 'tool', tool_call_id: 'call_1', content: 'hello world' },
        ],
        tools: [{ type: 'function', function: { name: readTool.name, description: readTool.description, parameters: readTool.inputSchema } }],
      },
    ]);
  });

  it('leaves out tools, limits and effort that are not set, and the key when there is none', async () => {
    const provider = await providerFor([reply.text('a'), reply.text('b')]);
    await provider.complete({ messages: [{ role: 'user', content: 'hi' }], tools: [] });
    expect(server!.requests[0]).toEqual({ model: 'test-model', stream: false, messages: [{ role: 'user', content: 'hi' }] });
    expect(server!.headers[0]!.authorization).toBeUndefined();
  });

  it('sends the API key as a bearer token and the configured defaults', async () => {
    server = await startScriptedModelServer([reply.text('ok')]);
    const provider = new OpenAiCompatibleProvider({
      baseUrl: `${server.baseUrl}/`,
      model: 'm',
      apiKey: 'sk-test',
      maxOutputTokens: 99,
      reasoningEffort: 'high',
    });
    await provider.complete(firstTurn());
    expect(server.headers[0]!.authorization).toBe('Bearer sk-test');
    expect(server.requests[0]).toMatchObject({ max_tokens: 99, reasoning_effort: 'high' });
  });
});

describe('OpenAiCompatibleProvider replies', () => {
  it('parses tool calls and records the usage of the call', async () => {
    const provider = await providerFor([
      reply.toolCalls([{ id: 'call_a', name: 'read_resource', arguments: { id: 'res_1' } }], {
        usage: { promptTokens: 120, completionTokens: 12 },
      }),
    ]);
    const response = await provider.complete(firstTurn());
    expect(response).toMatchObject({
      message: { content: null, toolCalls: [{ id: 'call_a', name: 'read_resource', arguments: '{"id":"res_1"}' }] },
      finishReason: 'tool_calls',
      usage: { inputTokens: 120, outputTokens: 12, totalTokens: 132 },
      model: 'test-model',
      attempts: 1,
    });
    expect(response.usage.estimated).toBeUndefined();
    expect(response.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('passes invalid JSON arguments and unknown tools through as the model wrote them', async () => {
    const provider = await providerFor([
      reply.toolCalls([
        { name: 'read_resource', arguments: '{"id": res_1' },
        { name: 'no_such_tool', arguments: '{}' },
      ]),
    ]);
    const response = await provider.complete(firstTurn());
    expect(response.message.toolCalls.map((call) => [call.name, call.arguments])).toEqual([
      ['read_resource', '{"id": res_1'],
      ['no_such_tool', '{}'],
    ]);
  });

  it("surfaces a reply cut off at the output limit as finishReason 'length'", async () => {
    const provider = await providerFor([
      reply.text('The answer begins', { finishReason: 'length' }),
      reply.toolCalls([{ name: 'read_resource', arguments: '{"id": "res' }], { finishReason: 'length' }),
    ]);
    expect((await provider.complete(firstTurn())).finishReason).toBe('length');
    const cut = await provider.complete(firstTurn());
    expect(cut.finishReason).toBe('length');
    expect(cut.message.toolCalls[0]!.arguments).toBe('{"id": "res');
  });

  it('makes up ids for tool calls that come without one', async () => {
    const call = { id: null, name: 'read_resource', arguments: '{"id":"res_1"}' };
    const provider = await providerFor([reply.toolCalls([call, call])]);
    const ids = (await provider.complete(firstTurn())).message.toolCalls.map((c) => c.id);
    expect(ids[0]).toMatch(/^call_[0-9a-f]{24}$/);
    expect(new Set(ids).size).toBe(2);
  });

  it('estimates usage with the tokenizer, and says so, when the server reports none', async () => {
    const text = 'The quick brown fox jumps over the lazy dog again.';
    const provider = await providerFor([reply.text(text, { usage: null })]);
    const { usage } = await provider.complete(firstTurn());
    // 'test-model' is no OpenAI family: cl100k_base, where this text is 11 tokens (chars/4 said 13).
    expect(usage).toMatchObject({ outputTokens: encodeCl100k(text).length, estimated: true });
    expect(usage.outputTokens).toBe(11);
    expect(usage.inputTokens).toBeGreaterThan(0);
    expect(usage.totalTokens).toBe(usage.inputTokens + usage.outputTokens);
  });
});
