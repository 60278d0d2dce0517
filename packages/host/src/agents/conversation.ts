import type { ChatMessage } from '../models/types';
import type { ConversationRecord } from '../store/agent-records';

/** Conversation entries are stored as the chat messages themselves. */
export function toChatMessage(record: ConversationRecord): ChatMessage {
  return record.message as unknown as ChatMessage;
}


/**
 * Tool calls of the newest assistant entry that have no result yet: the turn the host died in.
 * Resuming runs these (with their idempotency keys) instead of asking the model again.
 */
export function unansweredToolCalls(records: readonly ConversationRecord[]): { turn: number; calls: NonNullable<Extract<ChatMessage, { role: 'assistant' }>['toolCalls']> } | undefined {
  for (let i = records.length - 1; i >= 0; i--) {
    const message = toChatMessage(records[i]!);
    if (message.role !== 'assistant') continue;
    const answered = new Set(
      records
        .slice(i + 1)
        .map(toChatMessage)
        .flatMap((m) => (m.role === 'tool' ? [m.toolCallId] : [])),
    );
    const calls = (message.toolCalls ?? []).filter((c) => !answered.has(c.id));
    return calls.length > 0 ? { turn: records[i]!.turn, calls } : undefined;
  }
  return undefined;
}
