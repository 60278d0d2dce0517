import { createHash } from 'node:crypto';
import { isPlainObject } from '../util/json';
import type { ChatMessage, FinishReason, ModelRequest, ReasoningEffort, ToolCall } from './types';

/**
 * The OpenAI chat-completions wire format, both ways. Requests are written strictly to the
 * protocol; responses are read leniently, because vLLM, llama.cpp, Ollama and others each bend it a
 * little (missing tool call ids, arguments sent as an object, no usage, content as parts).
 */

export interface WireToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type WireMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: WireToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface WireTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface WireChatRequest {
  model: string;
  messages: WireMessage[];
  tools?: WireTool[];
  max_tokens?: number;
  reasoning_effort?: ReasoningEffort;
  stream?: boolean;
}

export interface WireRequestDefaults {
  model: string;
  maxOutputTokens?: number;
  reasoningEffort?: ReasoningEffort;
}

export function toWireRequest(request: ModelRequest, defaults: WireRequestDefaults): WireChatRequest {
  const body: WireChatRequest = { model: defaults.model, messages: request.messages.map(toWireMessage), stream: false };
  // An empty tools array is refused by some servers, so it is left out.
  if (request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: { ...tool.inputSchema } },
    }));
  }
  // `max_tokens` rather than `max_completion_tokens`: it is the one vLLM, llama.cpp and Ollama all read.
  const maxTokens = request.maxOutputTokens ?? defaults.maxOutputTokens;
  if (maxTokens !== undefined) body.max_tokens = maxTokens;
  const effort = request.reasoningEffort ?? defaults.reasoningEffort;
  if (effort !== undefined) body.reasoning_effort = effort;
  return body;
}

function toWireMessage(message: ChatMessage): WireMessage {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    case 'assistant': {
      const calls = message.toolCalls ?? [];
      if (calls.length === 0) return { role: 'assistant', content: message.content };
      return {
        role: 'assistant',
        content: message.content,
        tool_calls: calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })),
      };
    }
  }
}

/** What a 200 reply carries, before usage is settled. */
export interface ParsedReply {
  content: string | null;
  toolCalls: ToolCall[];
  finishReason: FinishReason;
  model: string | undefined;
  usage: { inputTokens: number; outputTokens: number; totalTokens: number } | undefined;
}

/** Reads a chat-completions reply; returns a sentence saying what is wrong when it is not one. */
export function parseWireResponse(body: unknown): ParsedReply | string {
  if (!isPlainObject(body)) return 'the reply is not a JSON object';
  const choices = body.choices;
  if (!Array.isArray(choices) || choices.length === 0) return 'the reply has no choices';
  const choice: unknown = choices[0];
  if (!isPlainObject(choice) || !isPlainObject(choice.message)) return 'the first choice has no message';
  const message = choice.message;
  const responseId = typeof body.id === 'string' ? body.id : '';
  const rawCalls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
  const toolCalls = rawCalls.map((call: unknown, index) => parseToolCall(call, index, responseId));
  return {
    content: readContent(message.content),
    toolCalls,
    finishReason: mapFinishReason(choice.finish_reason, toolCalls.length > 0),
    model: typeof body.model === 'string' ? body.model : undefined,
    usage: readUsage(body.usage),
  };
}

function parseToolCall(call: unknown, index: number, responseId: string): ToolCall {
  const fn = isPlainObject(call) && isPlainObject(call.function) ? call.function : {};
  const name = typeof fn.name === 'string' ? fn.name : '';
  // Arguments stay the model's raw text; a server that sends an object gets it re-serialised.
  const args = typeof fn.arguments === 'string' ? fn.arguments : fn.arguments === undefined ? '' : JSON.stringify(fn.arguments);
  const givenId = isPlainObject(call) && typeof call.id === 'string' && call.id !== '' ? call.id : undefined;
  return { id: givenId ?? stableCallId(responseId, index, name, args), name, arguments: args };
}

/**
 * Some servers omit tool call ids. The one made up here depends only on the reply, so a replayed
 * or re-parsed reply gets the same id (the loop keys idempotency on it).
 */
function stableCallId(responseId: string, index: number, name: string, args: string): string {
  const digest = createHash('sha256').update(`${responseId}\n${index}\n${name}\n${args}`).digest('hex');
  return `call_${digest.slice(0, 24)}`;
}

function readContent(content: unknown): string | null {
  if (typeof content === 'string') return content;
  // Content given as parts: keep the text parts.
  if (Array.isArray(content)) {
    const texts = content.map((part: unknown) => (isPlainObject(part) && typeof part.text === 'string' ? part.text : ''));
    return texts.join('');
  }
  return null;
}

/** A server that reports `stop` while returning tool calls (older vLLM, Ollama) is read as `tool_calls`. */
function mapFinishReason(reason: unknown, hasToolCalls: boolean): FinishReason {
  switch (reason) {
    case 'stop':
      return hasToolCalls ? 'tool_calls' : 'stop';
    case 'tool_calls':
    case 'function_call':
      return 'tool_calls';
    case 'length':
      return 'length';
    case 'content_filter':
      return 'content_filter';
    default:
      return hasToolCalls ? 'tool_calls' : 'other';
  }
}

function readUsage(usage: unknown): ParsedReply['usage'] {
  if (!isPlainObject(usage)) return undefined;
  const input = usage.prompt_tokens;
  const output = usage.completion_tokens;
  if (typeof input !== 'number' || typeof output !== 'number') return undefined;
  const total = typeof usage.total_tokens === 'number' ? usage.total_tokens : input + output;
  return { inputTokens: input, outputTokens: output, totalTokens: total };
}
