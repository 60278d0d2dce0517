import { estimateTokens } from '../models/estimate';
import type { ChatMessage } from '../models/types';

/**
 * Builds the context for one model turn, within a token budget, from: the agent's standing
 * instructions, its memory, a projection of runtime state, the latest compaction summary, and the
 * messages logged since that compaction. Pure: same input, same context.
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
  /** Tokens the whole context may take (the window less the output reserve). */
  readonly budgetTokens: number;
}

export interface BuiltContext {
  readonly messages: ChatMessage[];
  readonly tokens: number;
  /** Logged messages left out for lack of room (they stay in the log on disk). */
  readonly droppedMessages: number;
}

/** Per-message framing the chat format adds around content. */
const MESSAGE_OVERHEAD_TOKENS = 4;

export function buildContext(input: ContextInput): BuiltContext {
  const head: ChatMessage = { role: 'system', content: headText(input) };
  const units = toUnits(input.messages);
  const omitted = input.omittedBefore ?? 0;
  const fitted = fitUnits(units, input.budgetTokens - messageTokens(head));
  let kept = fitted.kept;
  let note: ChatMessage | undefined;
  const unread = input.messages.length - kept.reduce((sum, u) => sum + u.length, 0) + omitted;
  if (unread > 0) {
    // Make room for the note that tells the model messages were left out.
    const total = input.messages.length + omitted;
    kept = fitUnits(units, input.budgetTokens - messageTokens(head) - messageTokens(droppedNote(total))).kept;
    note = droppedNote(total - kept.reduce((sum, u) => sum + u.length, 0));
  }
  const messages: ChatMessage[] = [head, ...(note ? [note] : []), ...kept.flat()];
  const tokens = messages.reduce((sum, m) => sum + messageTokens(m), 0);
  const keptCount = kept.reduce((sum, u) => sum + u.length, 0);
  return { messages, tokens, droppedMessages: input.messages.length + omitted - keptCount };
}

/** The newest units that fit in `budget` tokens; the newest one is kept even when it does not. */
function fitUnits(units: readonly ChatMessage[][], budget: number): { kept: ChatMessage[][]; dropped: number } {
  const kept: ChatMessage[][] = [];
  let tokens = 0;
  for (let i = units.length - 1; i >= 0; i--) {
    const unit = units[i]!;
    const cost = unit.reduce((sum, m) => sum + messageTokens(m), 0);
    if (kept.length > 0 && tokens + cost > budget) {
      return { kept, dropped: units.slice(0, i + 1).reduce((sum, u) => sum + u.length, 0) };
    }
    kept.unshift(unit);
    tokens += cost;
  }
  return { kept, dropped: 0 };
}

function droppedNote(count: number): ChatMessage {
  return {
    role: 'user',
    content: `[${count} earlier messages are not shown to save room; they are kept in the task log. Use your memory and the summary above.]`,
  };
}

export function messageTokens(message: ChatMessage): number {
  const body =
    message.role === 'assistant'
      ? (message.content ?? '') + (message.toolCalls ?? []).map((c) => c.name + c.arguments).join('')
      : message.content;
  return estimateTokens(body) + MESSAGE_OVERHEAD_TOKENS;
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
