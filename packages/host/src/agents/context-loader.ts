import { tokenizerFor, type Tokenizer } from '../models/tokenizer';
import type { ChatMessage } from '../models/types';
import type { ConversationRecord } from '../store/agent-records';
import type { Store } from '../store/store';
import { messageTokens } from './context-builder';
import { toChatMessage } from './conversation';

/** Conversation records are read from the end in pages of this size. */
export const PAGE = 128;

export interface RecentContext {
  readonly messages: ChatMessage[];
  readonly summary: string | null;
  readonly omitted: number;
}

interface CachedRecord {
  readonly seq: number;
  readonly message: ChatMessage;
  readonly tokens: number;
}

/**
 * What one agent's loads keep between its turns. The log is append-only (a record's seq is fixed
 * when it is written, and never reused), so a later load reads only the records newer than the
 * ones kept, and takes the same window the pages would. A compaction, another tokenizer or a
 * window reaching past what is kept reads from the store again.
 */
export class RecentContextCache {
  afterSeq = -1;
  encoding = '';
  lastSeq = 0;
  /** Records after `afterSeq` in the log. */
  total = 0;
  /** The newest records, oldest first. */
  records: CachedRecord[] = [];
  /** Whether `records` holds every record after `afterSeq`. */
  complete = false;
}

/**
 * The messages since an agent's latest compaction, read from the newest backwards only as far as
 * the budget reaches (plus one page), so building a context costs the same at 100 or 10,000 logged
 * messages. `omitted` counts the older ones not read. With a `cache` (one per agent loop), each
 * turn reads only the records logged since the last and answers exactly what the pages would.
 */
export async function loadRecentContext(
  store: Store,
  taskId: string,
  agentId: string,
  budgetTokens: number,
  tokenizer: Tokenizer = tokenizerFor(),
  cache?: RecentContextCache,
): Promise<RecentContext> {
  return store.read(async (tx) => {
    const compaction = await tx.compactions.latest(taskId, agentId);
    const afterSeq = compaction?.summarisedToSeq ?? 0;
    const summary = compaction?.summary ?? null;
    if (cache && cache.afterSeq === afterSeq && cache.encoding === tokenizer.encoding) {
      const fresh = await tx.conversation.list(taskId, agentId, cache.lastSeq);
      for (const record of fresh) cache.records.push(cached(record, tokenizer));
      cache.total += fresh.length;
      if (fresh.length > 0) cache.lastSeq = fresh[fresh.length - 1]!.seq;
      const taken = windowOf(cache.records, cache.complete, budgetTokens);
      if (taken !== undefined) {
        const from = cache.records.length - taken;
        const messages = new Array<ChatMessage>(taken);
        for (let i = 0; i < taken; i++) messages[i] = cache.records[from + i]!.message;
        // Keep what the next turns' windows can reach: this one, the records they add, a page more.
        // Cut only once two pages more have gathered: cutting every turn copied the whole window.
        if (cache.records.length > taken + 4 * PAGE) {
          cache.records = cache.records.slice(cache.records.length - taken - 2 * PAGE);
          cache.complete = false;
        }
        return { messages, summary, omitted: cache.total - taken };
      }
    }
    const newestFirst: ConversationRecord[] = [];
    let tokens = 0;
    let reachedStart = false;
    for (let beforeSeq: number | undefined; ; ) {
      const page = await tx.conversation.recent(taskId, agentId, { afterSeq, beforeSeq, limit: PAGE });
      newestFirst.push(...page);
      for (const record of page) tokens += messageTokens(toChatMessage(record), tokenizer);
      if (page.length < PAGE) reachedStart = true;
      if (page.length < PAGE || tokens > budgetTokens) break;
      beforeSeq = page[page.length - 1]!.seq;
    }
    // An agent's seqs run 1, 2, 3... with no gaps (append takes the highest plus one, nothing is
    // deleted, an import checks them), so the records after the boundary number the newest seq
    // less the boundary: no count that reads the whole log, as a COUNT(*) would at 10,000.
    const total = reachedStart ? newestFirst.length : newestFirst[0]!.seq - afterSeq;
    const oldestFirst = newestFirst.reverse();
    if (cache) {
      cache.afterSeq = afterSeq;
      cache.encoding = tokenizer.encoding;
      cache.records = oldestFirst.map((record) => cached(record, tokenizer));
      cache.complete = reachedStart;
      cache.total = total;
      // With no record yet, the next ones come after the compaction's boundary.
      cache.lastSeq = oldestFirst.length > 0 ? oldestFirst[oldestFirst.length - 1]!.seq : afterSeq;
    }
    return { messages: oldestFirst.map(toChatMessage), summary, omitted: total - oldestFirst.length };
  });
}

function cached(record: ConversationRecord, tokenizer: Tokenizer): CachedRecord {
  const message = toChatMessage(record);
  return { seq: record.seq, message, tokens: messageTokens(message, tokenizer) };
}

/**
 * How many of the newest records the pages would read: whole pages from the newest until one ends
 * past the budget, or all of them at the start of the log. Undefined when the records kept end
 * before that point and more of the log lies beyond them.
 */
function windowOf(records: readonly CachedRecord[], complete: boolean, budgetTokens: number): number | undefined {
  let tokens = 0;
  for (let taken = 0; ; ) {
    const page = Math.min(PAGE, records.length - taken);
    for (let i = 0; i < page; i++) tokens += records[records.length - 1 - taken - i]!.tokens;
    taken += page;
    if (page < PAGE) return complete ? taken : undefined;
    if (tokens > budgetTokens) return taken;
    if (taken === records.length) return complete ? taken : undefined;
  }
}
