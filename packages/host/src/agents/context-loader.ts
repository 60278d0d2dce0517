import { tokenizerFor, type Tokenizer } from '../models/tokenizer';
import type { ChatMessage } from '../models/types';
import type { ConversationRecord } from '../store/agent-records';
import type { Store } from '../store/store';
import { messageTokens } from './context-builder';
import { toChatMessage } from './conversation';

/** Conversation records are read from the end in pages of this size. */
export const PAGE = 128;

/**
 * The messages since an agent's latest compaction, read from the newest backwards only as far as
 * the budget reaches (plus one page), so building a context costs the same at 100 or 10,000 logged
 * messages. `omitted` counts the older ones not read.
 */
export async function loadRecentContext(
  store: Store,
  taskId: string,
  agentId: string,
  budgetTokens: number,
  tokenizer: Tokenizer = tokenizerFor(),
): Promise<{ messages: ChatMessage[]; summary: string | null; omitted: number }> {
  return store.read(async (tx) => {
    const compaction = await tx.compactions.latest(taskId, agentId);
    const afterSeq = compaction?.summarisedToSeq ?? 0;
    const newestFirst: ConversationRecord[] = [];
    let tokens = 0;
    for (let beforeSeq: number | undefined; ; ) {
      const page = await tx.conversation.recent(taskId, agentId, { afterSeq, beforeSeq, limit: PAGE });
      newestFirst.push(...page);
      for (const record of page) tokens += messageTokens(toChatMessage(record), tokenizer);
      if (page.length < PAGE || tokens > budgetTokens) break;
      beforeSeq = page[page.length - 1]!.seq;
    }
    const total = newestFirst.length < PAGE ? newestFirst.length : await tx.conversation.count(taskId, agentId, afterSeq);
    return { messages: newestFirst.reverse().map(toChatMessage), summary: compaction?.summary ?? null, omitted: total - newestFirst.length };
  });
}
