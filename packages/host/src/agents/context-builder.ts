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
  let kept = fitUnits(input.messages, units, room, tokenizer);
  let note: ChatMessage | undefined;
  if (kept.sent < total) {
    // Make room for the note that tells the model messages were left out.
    kept = fitUnits(input.messages, units, room - tokenizer.countMessage(droppedNote(total)), tokenizer);
    note = droppedNote(total - kept.sent);
  }
  // Sized once (a window can be hundreds of messages, and pushing grows an array by copies).
  const messages = new Array<ChatMessage>(1 + (note ? 1 : 0) + kept.sent);
  let at = 0;
  messages[at++] = head;
  if (note) messages[at++] = note;
  for (let i = kept.from; i < input.messages.length; i++) if (!units.orphans?.has(i)) messages[at++] = input.messages[i]!;
  const tokens = fixed + headTokens + (note ? tokenizer.countMessage(note) : 0) + kept.tokens;
  return { messages, tokens, toolTokens, droppedMessages: total - kept.sent };
}

/**
 * The units of a list of messages, as indexes into it: an assistant message with tool calls
 * travels with all of its tool results, so a call is never separated from its result. Tool
 * results whose call is not before them (its assistant message was summarised away) cannot be
 * sent alone: they are `orphans`, left out. Indexes rather than an array per unit: this runs every
 * turn over the whole window, and a turn's allocations are what its garbage collections cost.
 */
interface Units {
  /** The index of each unit's first message. */
  readonly starts: Int32Array;
  /** Tool results left out; undefined when there are none (nearly always). */
  readonly orphans: ReadonlySet<number> | undefined;
}

function toUnits(messages: readonly ChatMessage[]): Units {
  // One typed array as long as the messages (at most one unit each): no growing by copies.
  const all = new Int32Array(messages.length);
  let count = 0;
  let orphans: Set<number> | undefined;
  let owner: ChatMessage | undefined;
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role !== 'tool') {
      all[count++] = i;
      owner = message;
    } else if (owner?.role !== 'assistant' || !owner.toolCalls?.some((c) => c.id === message.toolCallId)) {
      (orphans ??= new Set()).add(i);
    }
  }
  return { starts: all.subarray(0, count), orphans };
}

/**
 * Where the newest units that fit in `budget` tokens begin, their tokens and how many messages they
 * send; the newest unit is kept even when it does not fit.
 */
function fitUnits(messages: readonly ChatMessage[], units: Units, budget: number, tokenizer: Tokenizer): { from: number; tokens: number; sent: number } {
  const { starts, orphans } = units;
  let from = messages.length;
  let tokens = 0;
  let sent = 0;
  for (let unit = starts.length - 1; unit >= 0; unit--) {
    let cost = 0;
    let count = 0;
    for (let i = starts[unit]!; i < from; i++) {
      if (orphans?.has(i)) continue;
      cost += tokenizer.countMessage(messages[i]!);
      count++;
    }
    if (unit < starts.length - 1 && tokens + cost > budget) break;
    tokens += cost;
    sent += count;
    from = starts[unit]!;
  }
  return { from, tokens, sent };
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

function headText(input: ContextInput): string {
  const parts = [input.instructions.trim()];
  if (input.memory && input.memory.trim() !== '') parts.push(`## Your memory (memory.md)\n${input.memory.trim()}`);
  if (input.projection) parts.push(`## Runtime state\n${input.projection.trim()}`);
  if (input.summary) parts.push(`## Summary of earlier work\n${input.summary.trim()}`);
  return parts.join('\n\n');
}
