import { createHash } from 'node:crypto';
import { isPlainObject } from '../util/json';
import type { ChatMessage, ModelRequest, ModelResponse, ToolSpec } from './types';

/**
 * The recording file: JSON Lines, one model turn a line, appended as the session runs. A line
 * holds the request as the model saw it (messages and tools in a canonical form, plus its hash),
 * and what came back: a response, or the coded error the provider threw.
 */

export const RECORDING_VERSION = 1;

export interface RecordedRequest {
  messages: unknown[];
  tools: unknown[];
  maxOutputTokens?: number;
  reasoningEffort?: string;
}

export interface RecordedError {
  code: string;
  message: string;
  details: Record<string, unknown>;
}

export interface RecordedTurn {
  v: number;
  turn: number;
  provider: string;
  maxContextTokens: number;
  /** sha256 of the canonical JSON of `{messages, tools}`: what strict replay compares. */
  requestHash: string;
  request: RecordedRequest;
  response?: ModelResponse;
  error?: RecordedError;
}

/** The request without its signal, with a fixed key order, so equal requests serialise equally. */
export function canonicalRequest(request: ModelRequest): RecordedRequest {
  const recorded: RecordedRequest = {
    messages: request.messages.map(canonicalMessage),
    tools: request.tools.map(canonicalTool),
  };
  if (request.maxOutputTokens !== undefined) recorded.maxOutputTokens = request.maxOutputTokens;
  if (request.reasoningEffort !== undefined) recorded.reasoningEffort = request.reasoningEffort;
  return recorded;
}

export function requestHash(request: RecordedRequest): string {
  return createHash('sha256').update(canonicalJson({ messages: request.messages, tools: request.tools })).digest('hex');
}

/** Where two requests first differ, for the replay_mismatch error (`messages[3]`, `tools`, …). */
export function firstDifference(recorded: RecordedRequest, actual: RecordedRequest): string {
  const count = Math.max(recorded.messages.length, actual.messages.length);
  for (let i = 0; i < count; i++) {
    if (canonicalJson(recorded.messages[i] ?? null) !== canonicalJson(actual.messages[i] ?? null)) {
      if (i >= recorded.messages.length || i >= actual.messages.length) {
        return `messages.length (recorded ${recorded.messages.length}, got ${actual.messages.length})`;
      }
      return `messages[${i}]`;
    }
  }
  return canonicalJson(recorded.tools) === canonicalJson(actual.tools) ? 'none' : 'tools';
}

/** JSON with object keys sorted at every depth. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isPlainObject(value)) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    if (value[key] !== undefined) sorted[key] = sortKeys(value[key]);
  }
  return sorted;
}

// An assistant message with `toolCalls: []` and one without are the same request to a model.
function canonicalMessage(message: ChatMessage): unknown {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content };
    case 'tool':
      return { role: 'tool', toolCallId: message.toolCallId, content: message.content };
    case 'assistant': {
      const calls = message.toolCalls ?? [];
      if (calls.length === 0) return { role: 'assistant', content: message.content };
      return {
        role: 'assistant',
        content: message.content,
        toolCalls: calls.map((call) => ({ id: call.id, name: call.name, arguments: call.arguments })),
      };
    }
  }
}

function canonicalTool(tool: ToolSpec): unknown {
  return { name: tool.name, description: tool.description, inputSchema: sortKeys(tool.inputSchema) };
}
