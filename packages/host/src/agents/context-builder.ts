import { REPLY_PRIMING_TOKENS, tokenizerFor, type Tokenizer } from '../models/tokenizer';
import type { ChatMessage, ToolSpec } from '../models/types';

/**
 * Builds the context for one model turn, within a token budget, from: the agent's standing
 * instructions, its memory, a projection of runtime state, the latest compaction summary, and the
 * messages logged since that compaction. The budget also pays for the tool definitions sent with
 * the request and the reply priming; everything is counted with the model family's tokenizer.
 * Pure: same input, same context.
 *
 * Messages are kept in units: an assistant message with tool calls travels with all of its tool
 * results, so a call is never separated from its result. When the budget is short, the oldest
 * units go first; the newest unit is always kept.
 */
export interface ContextInput {
  readonly instructions: string;
  readonly memory: string | null;
  readonly projection: string | null;
  readonly summary: string | null;
  readonly messages: readonly ChatMessage[];
  /** Older logged messages that were not even read (the caller stopped reading at the budget). */
  readonly omittedBefore?: number;
  /** Tokens the whole request may take (the window less the output reserve). */
  readonly budgetTokens: number;
  /** The tool definitions the request will carry: they count against the budget. */
  readonly tools?: readonly ToolSpec[];
  /** Counts tokens; the model family's (`tokenizerFor(provider.model)`), cl100k_base when not given. */
  readonly tokenizer?: Tokenizer;
}

export interface BuiltContext {
  readonly messages: ChatMessage[];
  /** Tokens of the whole request: the messages with their framing, the tool definitions and the reply priming. */
  readonly tokens: number;
  /** Of `tokens`, what the tool definitions take. */
  readonly toolTokens: number;
  /** Logged messages left out for lack of room (they stay in the log on disk). */
  readonly droppedMessages: number;
}

export function buildContext(input: ContextInput): BuiltContext {
  const tokenizer = input.tokenizer ?? tokenizerFor();
  const head: ChatMessage = { role: 'system', content: headText(input) };
  const units = toUnits(input.messages);
  const total = input.messages.length + (input.omittedBefore ?? 0);
  const toolTokens = tokenizer.countTools(input.tools ?? []);
  const fixed = REPLY_PRIMING_TOKENS + toolTokens;
  const headTokens = tokenizer.countMessage(head);
  const room = input.budgetTokens - fixed - headTokens;
  let kept = fitUnits(units, room, tokenizer);
  let note: ChatMessage | undefined;
  if (kept.messages.length < total) {
    // Make room for the note that tells the model messages were left out.
    kept = fitUnits(units, room - tokenizer.countMessage(droppedNote(total)), tokenizer);
    note = droppedNote(total - kept.messages.length);
  }
  const messages: ChatMessage[] = [head, ...(note ? [note] : []), ...kept.messages];
  const tokens = fixed + headTokens + (note ? tokenizer.countMessage(note) : 0) + kept.tokens;
  return { messages, tokens, toolTokens, droppedMessages: total - kept.messages.length };
}

/** The messages of the newest units that fit in `budget` tokens, and their tokens; the newest unit is kept even when it does not fit. */
function fitUnits(units: readonly ChatMessage[][], budget: number, tokenizer: Tokenizer): { messages: ChatMessage[]; tokens: number } {
  let first = units.length;
  let tokens = 0;
  for (; first > 0; first--) {
    const cost = units[first - 1]!.reduce((sum, m) => sum + tokenizer.countMessage(m), 0);
    if (first < units.length && tokens + cost > budget) break;
    tokens += cost;
  }
  return { messages: units.slice(first).flat(), tokens };
}

function droppedNote(count: number): ChatMessage {
  return {
    role: 'user',
    content: `[${count} earlier messages are not shown to save room; they are kept in the task log. Use your memory and the summary above.]`,
  };
}

/** Tokens one message takes in a request, framing included (cl100k_base unless a tokenizer is given). */
export function messageTokens(message: ChatMessage, tokenizer: Tokenizer = tokenizerFor()): number {
  return tokenizer.countMessage(message);
}

/**
 * Splits messages into units that must stay together. Tool results whose call is not in the list
 * (its assistant message was summarised away) cannot be sent alone and are left out.
 */
export function toUnits(messages: readonly ChatMessage[]): ChatMessage[][] {
  const units: ChatMessage[][] = [];
  for (const message of messages) {
    if (message.role === 'tool') {
      const last = units[units.length - 1];
      const owner = last?.[0];
      if (owner?.role === 'assistant' && owner.toolCalls?.some((c) => c.id === message.toolCallId)) last!.push(message);
      continue;
    }
    units.push([message]);
  }
  return units;
}

function headText(input: ContextInput): string {
  const parts = [input.instructions.trim()];
  if (input.memory && input.memory.trim() !== '') parts.push(`## Your memory (memory.md)\n${input.memory.trim()}`);
  if (input.projection) parts.push(`## Runtime state\n${input.projection.trim()}`);
  if (input.summary) parts.push(`## Summary of earlier work\n${input.summary.trim()}`);
  return parts.join('\n\n');
}
