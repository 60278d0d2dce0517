/**
 * Invariants: token counts are gpt-tokenizer's own encode length for the encoding of the model's
 * family (o200k_base for gpt-4o/4.1/5/o-series, cl100k_base for gpt-3.5/gpt-4 and any other name);
 * they differ from characters divided by four where BPE does (CJK, code, long numbers); a message
 * costs its text plus the chat framing; tool definitions cost their wire JSON; text with special
 * tokens in it is counted as plain text, never refused; usage estimated without a server report
 * uses the same counts.
 */
import fc from 'fast-check';
import { encode as encodeCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { encode as encodeO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { estimateRequestTokens, estimateTokens, estimateUsage } from '../../src/models/estimate';
import { charEstimateTokenizer, encodingForModel, MESSAGE_OVERHEAD_TOKENS, REPLY_PRIMING_TOKENS, tokenizerFor } from '../../src/models/tokenizer';
import type { ChatMessage, ToolSpec } from '../../src/models/types';

const SAMPLES = {
  english: 'The agent reads the resource, proposes an edit, and commits it on the revision it read, so no one overwrites work they never saw.',
  cjk: '代理读取资源，提出修改，并在它读取的修订版本上提交，这样就不会覆盖别人没见过的工作。東京は日本の首都です。',
  code: 'function fitUnits(units, budget) {\n  let first = units.length;\n  for (let t = 0; first > 0; first--) {\n    const cost = units[first - 1].reduce((s, m) => s + count(m), 0);\n    if (t + cost > budget) break;\n    t += cost;\n  }\n  return units.slice(first).flat();\n}',
  numbers: '3141592653589793238462643383279502884197169399375105820974944592307816406286 20899862803482534211706798214808651328230664709384460955058223172535940812848',
};

describe('tokenizer', () => {
  it('picks the encoding from the model family, cl100k_base for unknown and open models', () => {
    for (const model of ['gpt-4o', 'gpt-4o-mini-2024-07-18', 'GPT-4.1', 'gpt-5', 'gpt-5.1-codex', 'o1', 'o3-mini', 'o4-mini', 'gpt-oss-120b', 'openai/gpt-4o']) {
      expect([model, encodingForModel(model)]).toEqual([model, 'o200k_base']);
    }
    for (const model of ['gpt-4', 'gpt-4-turbo', 'gpt-3.5-turbo', 'llama-3.1-8b-instruct', 'Qwen/Qwen2.5-7B-Instruct', 'scripted', '', undefined, null]) {
      expect([model, encodingForModel(model)]).toEqual([model, 'cl100k_base']);
    }
    expect(tokenizerFor('gpt-4o')).toBe(tokenizerFor('o3'));
    expect(tokenizerFor().encoding).toBe('cl100k_base');
  });

  it("counts text as gpt-tokenizer's encode length, cached or not", () => {
    for (const text of [...Object.values(SAMPLES), '', 'a', 'x'.repeat(5000)]) {
      expect(tokenizerFor('gpt-4').countText(text)).toBe(encodeCl100k(text).length);
      expect(tokenizerFor('gpt-4o').countText(text)).toBe(encodeO200k(text).length);
      // Second time from the cache.
      expect(tokenizerFor('gpt-4o').countText(text)).toBe(encodeO200k(text).length);
    }
    expect(estimateTokens(SAMPLES.code, 'gpt-4o')).toBe(encodeO200k(SAMPLES.code).length);
  });

  it('counts a long text of paragraphs exactly as encoding it whole (it is counted paragraph by paragraph)', () => {
    // Pieces chosen to meet the pre-tokenizers' edges: punctuation runs that take newlines and '/'
    // with them, runs of newlines, CRLF, spaces before newlines, digits, apostrophes, other scripts.
    const pieces = ['hello', 'World', '.', '!', ' ', '\n', '\n\n', '\n\n\n', '\t', '##', '- ', '123', '4567', "'s", 'é', '日本', '🙂', '  ', ':', '(x)', '"q"', '/', '//', '\r\n', '<|endoftext|>'];
    const text = fc
      .array(fc.constantFrom(...pieces), { minLength: 700, maxLength: 1200 })
      .map((parts) => parts.join(''))
      .filter((t) => t.length >= 1024 && t.includes('\n\n'));
    for (const [model, encode] of [['gpt-4o', encodeO200k], ['gpt-4', encodeCl100k]] as const) {
      const tokenizer = tokenizerFor(model);
      fc.assert(
        fc.property(text, (t) => {
          expect(tokenizer.countText(t)).toBe(encode(t, { disallowedSpecial: new Set() }).length);
        }),
        { numRuns: 300 },
      );
    }
  });

  it('differs from characters divided by four where BPE does', () => {
    const cl100k = tokenizerFor('gpt-4');
    const chars4 = (text: string) => charEstimateTokenizer.countText(text);
    // CJK: about one token a character, not a quarter.
    expect(cl100k.countText(SAMPLES.cjk)).toBeGreaterThan(2 * chars4(SAMPLES.cjk));
    // Code and long numbers: more tokens than chars/4 says.
    expect(cl100k.countText(SAMPLES.code)).toBeGreaterThan(chars4(SAMPLES.code) * 1.2);
    expect(cl100k.countText(SAMPLES.numbers)).toBeGreaterThan(chars4(SAMPLES.numbers) * 1.2);
    // Plain English: fewer.
    expect(cl100k.countText(SAMPLES.english)).toBeLessThan(chars4(SAMPLES.english));
  });

  it('counts text with special tokens in it as plain text', () => {
    const text = 'a user pasted <|endoftext|> and <|im_start|> here';
    expect(tokenizerFor('gpt-4o').countText(text)).toBe(encodeO200k(text, { disallowedSpecial: new Set() }).length);
  });

  it('adds the chat framing to messages and counts every part of a tool call', () => {
    const t = tokenizerFor('gpt-4o');
    const user: ChatMessage = { role: 'user', content: SAMPLES.english };
    expect(t.countMessage(user)).toBe(MESSAGE_OVERHEAD_TOKENS + encodeO200k('user').length + encodeO200k(SAMPLES.english).length);
    const call: ChatMessage = { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'commit_resource', arguments: '{"resourceId":"r1","text":"' + SAMPLES.cjk + '"}' }] };
    expect(t.countMessage(call)).toBeGreaterThan(encodeO200k(SAMPLES.cjk).length);
    const result: ChatMessage = { role: 'tool', toolCallId: 'c1', content: SAMPLES.numbers };
    expect(t.countMessage(result)).toBeGreaterThan(encodeO200k(SAMPLES.numbers).length + MESSAGE_OVERHEAD_TOKENS);
    expect(t.countMessages([user, call, result])).toBe(REPLY_PRIMING_TOKENS + t.countMessage(user) + t.countMessage(call) + t.countMessage(result));
  });

  it('counts tool definitions by their wire JSON', () => {
    const t = tokenizerFor('gpt-4o');
    const tool: ToolSpec = { name: 'read_resource', description: 'Read a resource. '.repeat(20), inputSchema: { type: 'object', properties: { resourceId: { type: 'string' } } } };
    const json = JSON.stringify({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } });
    expect(t.countTools([])).toBe(0);
    expect(t.countTools([tool])).toBeGreaterThanOrEqual(encodeO200k(json).length);
    expect(t.countTools([tool, tool])).toBeGreaterThanOrEqual(2 * encodeO200k(json).length);
    const messages: ChatMessage[] = [{ role: 'user', content: 'hi' }];
    expect(estimateRequestTokens(messages, [tool], 'gpt-4o')).toBe(t.countMessages(messages) + t.countTools([tool]));
  });

  it('estimates usage with the tokenizer when a server reports none', () => {
    const messages: ChatMessage[] = [{ role: 'user', content: SAMPLES.cjk }];
    const usage = estimateUsage(messages, [], { content: SAMPLES.code, toolCalls: [] }, 'gpt-4o');
    expect(usage).toEqual({
      inputTokens: tokenizerFor('gpt-4o').countMessages(messages),
      outputTokens: encodeO200k(SAMPLES.code).length,
      totalTokens: tokenizerFor('gpt-4o').countMessages(messages) + encodeO200k(SAMPLES.code).length,
      estimated: true,
    });
  });
});
