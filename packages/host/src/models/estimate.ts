import { tokenizerFor } from './tokenizer';
import type { ChatMessage, TokenUsage, ToolCall, ToolSpec } from './types';

/**
 * Token counts for budgeting before a call and for when a server reports no usage, counted with
 * the tokenizer of the model's family (see `tokenizer.ts`; no model name means `cl100k_base`).
 */
export function estimateTokens(text: string, model?: string | null): number {
  return tokenizerFor(model).countText(text);
}

/** Tokens the messages (with their chat framing) and tool definitions of a request take. */
export function estimateRequestTokens(messages: readonly ChatMessage[], tools: readonly ToolSpec[], model?: string | null): number {
  const tokenizer = tokenizerFor(model);
  return tokenizer.countMessages(messages) + tokenizer.countTools(tools);
}

export function estimateUsage(
  messages: readonly ChatMessage[],
  tools: readonly ToolSpec[],
  reply: { content: string | null; toolCalls: readonly ToolCall[] },
  model?: string | null,
): TokenUsage {
  const tokenizer = tokenizerFor(model);
  const inputTokens = estimateRequestTokens(messages, tools, model);
  const outputTokens =
    tokenizer.countText(reply.content ?? '') + reply.toolCalls.reduce((sum, call) => sum + tokenizer.countText(call.name) + tokenizer.countText(call.arguments), 0);
  return { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens, estimated: true };
}
