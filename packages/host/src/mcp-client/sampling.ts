import type { CreateMessageRequest, CreateMessageResult } from '@modelcontextprotocol/sdk/types.js';
import type { ChatMessage, FinishReason, ModelRequest, ModelResponse } from '../models/types';

/**
 * A server's `sampling/createMessage` as a request to the host's lent model, and the model's answer
 * as the MCP result. The server's text is the user's turns of a conversation with no tools; parts
 * the model interface cannot carry (images, audio) are named, not sent.
 */
export function samplingRequest(params: CreateMessageRequest['params'], signal: AbortSignal): ModelRequest {
  const messages: ChatMessage[] = [];
  if (params.systemPrompt) messages.push({ role: 'system', content: params.systemPrompt });
  for (const message of params.messages) {
    const text = textOf(message.content);
    messages.push(message.role === 'assistant' ? { role: 'assistant', content: text } : { role: 'user', content: text });
  }
  return { messages, tools: [], maxOutputTokens: params.maxTokens, signal };
}

export function samplingResult(response: ModelResponse): CreateMessageResult {
  return { role: 'assistant', content: { type: 'text', text: response.message.content ?? '' }, model: response.model, stopReason: stopReason(response.finishReason) };
}

function stopReason(reason: FinishReason): string {
  if (reason === 'stop') return 'endTurn';
  if (reason === 'length') return 'maxTokens';
  return reason;
}

function textOf(content: unknown): string {
  const parts = Array.isArray(content) ? content : [content];
  return parts
    .map((part) => {
      const p = part as { type?: string; text?: unknown };
      if (p?.type === 'text' && typeof p.text === 'string') return p.text;
      return `[${typeof p?.type === 'string' ? p.type : 'unknown'} content omitted]`;
    })
    .join('\n');
}
