import type { Json } from './records';

/** What an Inbox message carries: a person's message, a subagent's result, or a peer message. */
export type InboxKind = 'user' | 'result' | 'message';

/**
 * A durable Inbox message. It is leased while being delivered (`leaseUntil`, epoch ms) and counts
 * as consumed only once it is saved in the recipient's conversation (`consumedAt`).
 */
export interface InboxRecord {
  readonly seq: number;
  readonly messageId: string;
  readonly taskId: string;
  /** `main` or a subagent's id. */
  readonly recipient: string;
  readonly sender: string;
  readonly kind: InboxKind;
  readonly body: Json;
  readonly createdAt: string;
  readonly leaseOwner: string | null;
  readonly leaseUntil: number | null;
  readonly consumedAt: string | null;
}

/** One message of an agent's full conversation log (a chat message as JSON). */
export interface ConversationRecord {
  readonly taskId: string;
  readonly agentId: string;
  readonly seq: number;
  readonly turn: number;
  readonly message: Json;
  /** The Inbox message this entry delivered; unique per conversation, which is what makes delivery exactly once. */
  readonly sourceMessageId: string | null;
  readonly createdAt: string;
}

/** A compaction: entries up to `summarisedToSeq` are represented by `summary` in later contexts. */
export interface CompactionRecord {
  readonly taskId: string;
  readonly agentId: string;
  readonly seq: number;
  readonly summarisedToSeq: number;
  readonly summary: string;
  /** What the compaction left out of the context (kept in the log on disk). */
  readonly dropped: Json;
  readonly createdAt: string;
}

export interface ModelCallRecord {
  readonly taskId: string;
  readonly agentId: string;
  readonly turn: number;
  readonly model: string;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly finishReason: string;
  readonly latencyMs: number;
  readonly attempts: number;
  readonly createdAt: string;
}

export interface InboxRepo {
  /** Adds a message; returns false (adding nothing) when its messageId is already known. */
  insert(record: Omit<InboxRecord, 'seq' | 'leaseOwner' | 'leaseUntil' | 'consumedAt'>): Promise<boolean>;
  /** Leases up to `limit` unconsumed messages whose lease is free or expired, oldest first. */
  lease(query: { taskId: string; recipient: string; owner: string; nowMs: number; leaseUntilMs: number; limit: number }): Promise<InboxRecord[]>;
  consume(messageId: string, at: string): Promise<boolean>;
  /** Unconsumed messages of a task (for one recipient when given), oldest first. */
  pending(taskId: string, recipient?: string): Promise<InboxRecord[]>;
  get(messageId: string): Promise<InboxRecord | undefined>;
  /** Messages with seq above `afterSeq`, oldest first, of every task (what another host posted). */
  after(afterSeq: number, limit: number): Promise<InboxPost[]>;
  lastSeq(): Promise<number>;
}

/** What is known of a message without reading its body: enough to wake its recipient. */
export type InboxPost = Pick<InboxRecord, 'seq' | 'messageId' | 'taskId' | 'recipient' | 'kind' | 'consumedAt'>;

export interface ConversationRepo {
  /**
   * Appends at the next seq (the highest plus one, from 1) and returns it. Fails on a repeated
   * `sourceMessageId`. An agent's seqs have no gaps: the context loader counts by them.
   */
  append(record: Omit<ConversationRecord, 'seq'>): Promise<number>;
  list(taskId: string, agentId: string, afterSeq?: number): Promise<ConversationRecord[]>;
  /** The newest records with `afterSeq < seq < beforeSeq`, newest first: for reading a long log from its end. */
  recent(taskId: string, agentId: string, range: { afterSeq: number; beforeSeq?: number; limit: number }): Promise<ConversationRecord[]>;
  last(taskId: string, agentId: string): Promise<ConversationRecord | undefined>;
  hasSource(taskId: string, agentId: string, sourceMessageId: string): Promise<boolean>;
}

export interface CompactionRepo {
  insert(record: Omit<CompactionRecord, 'seq'>): Promise<number>;
  latest(taskId: string, agentId: string): Promise<CompactionRecord | undefined>;
  list(taskId: string, agentId: string): Promise<CompactionRecord[]>;
}

export interface ModelCallRepo {
  insert(record: ModelCallRecord): Promise<void>;
  /**
   * Token totals of a task, or of one agent in it; with `afterId`, of the calls recorded after that
   * one only. `lastId` is the newest call counted (`afterId` when none), so a running total adds
   * only what is new instead of summing a log that grows every turn.
   */
  totals(taskId: string, agentId?: string, afterId?: number): Promise<{ calls: number; inputTokens: number; outputTokens: number; lastId: number }>;
}
