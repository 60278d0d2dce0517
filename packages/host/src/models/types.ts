import type { JsonSchema } from '../util/json-schema';

/**
 * The model interface the agent loop talks to. Every provider (the OpenAI-compatible HTTP one, a
 * replay of a recording, a recorder wrapped around another) implements `ModelProvider`; the loop
 * never sees the wire format.
 */

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; content: string };

/** `arguments` is the raw JSON text the model produced (it may be invalid JSON: the loop reports that back to the model). */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: JsonSchema;
}

export type ReasoningEffort = 'low' | 'medium' | 'high';

export interface ModelRequest {
  messages: ChatMessage[];
  tools: ToolSpec[];
  maxOutputTokens?: number;
  reasoningEffort?: ReasoningEffort;
  /** Aborting stops the call at once (no retry); the call rejects with the signal's reason. */
  signal?: AbortSignal;
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  /** True when the server reported no usage and these numbers were counted here with the tokenizer of the model's family. */
  estimated?: boolean;
}

export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'other';

export interface ModelResponse {
  message: { content: string | null; toolCalls: ToolCall[] };
  finishReason: FinishReason;
  usage: TokenUsage;
  model: string;
  /** Wall time of the call including retries. */
  latencyMs: number;
  /** How many HTTP attempts it took (1 = no retry). */
  attempts: number;
}

export interface ModelProvider {
  readonly name: string;
  /** The context window the provider was configured with, in tokens (the loop budgets against it). */
  readonly maxContextTokens: number;
  /** The model name requests go to, when known: it picks the tokenizer budgets count with (see `tokenizer.ts`). */
  readonly model?: string;
  /**
   * One model turn. Rejects with a CoworkError (`model_unavailable`, `model_timeout`,
   * `model_rejected`, `replay_mismatch`) or, when `request.signal` aborts, with the signal's reason.
   * Bad model output (invalid JSON arguments, a reply cut off at the output limit) is not an error:
   * it comes back in the response for the loop to handle.
   */
  complete(request: ModelRequest): Promise<ModelResponse>;
}
