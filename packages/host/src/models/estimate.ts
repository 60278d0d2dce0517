import type { ChatMessage, TokenUsage, ToolCall, ToolSpec } from './types';

/**
 * Rough token counts, for when a server reports no usage and for budgeting before a call. About 4
 * characters a token holds for English text and JSON with the common BPE tokenizers; it is an
 * estimate, and everything computed from it says so.
 */
const CHARS_PER_TOKEN = 4;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** Tokens the messages and tool specs of a request take, estimated from their JSON text. */
export function estimateRequestTokens(messages: readonly ChatMessage[], tools: readonly ToolSpec[]): number {
  return estimateTokens(JSON.stringify(messages)) + (tools.length > 0 ? estimateTokens(JSON.stringify(tools)) : 0);
}

export function estimateUsage(
  messages: readonly ChatMessage[],
  tools: readonly ToolSpec[],
  reply: { content: string | null; toolCalls: readonly ToolCall[] },
): TokenUsage {
  const inputTokens = estimateRequestTokens(messages, tools);
  const outputText = (reply.content ?? '') + reply.toolCalls.map((call) => call.name + call.arguments).join('');
  const outputTokens = estimateTokens(outputText);
  return { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens, estimated: true };
}
