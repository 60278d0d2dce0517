import type { InboxKind, InboxRecord } from '../store/agent-records';
import type { Json } from '../store/records';
import type { Store } from '../store/store';
import { Emitter } from '../util/emitter';
import { newId } from '../util/ids';
import type { InboxFeed } from './inbox-feed';

export interface PostRequest {
  /** Give a stable id to make re-posting after a crash harmless; a new one is made otherwise. */
  readonly messageId?: string;
  readonly taskId: string;
  readonly recipient: string;
  readonly sender: string;
  readonly kind: InboxKind;
  readonly body: Json;
}

export type InboxListener = (message: { taskId: string; recipient: string; messageId: string; kind: InboxKind }) => void;

/**
 * The durable Inbox. Posting is deduplicated by messageId. Delivery happens only at a decision
 * boundary: the deliverer leases messages, saves each into the recipient's conversation and marks
 * it consumed in the same transaction. A lease that expires (the host died mid-delivery) makes the
 * message deliverable again; the conversation's unique source id keeps it from being saved twice.
 */
export class Inbox {
  private readonly posted = new Emitter<Parameters<InboxListener>[0]>();

  constructor(
    private readonly store: Store,
    private readonly now: () => Date,
    private readonly leaseMs = 30_000,
    /** Other hosts' posts (PostgreSQL), for `wakeups`. */
    private readonly feed?: InboxFeed,
  ) {}

  async post(request: PostRequest): Promise<{ messageId: string; duplicate: boolean }> {
    const messageId = request.messageId ?? newId('msg');
    const inserted = await this.store.transaction((tx) =>
      tx.inbox.insert({
        messageId,
        taskId: request.taskId,
        recipient: request.recipient,
        sender: request.sender,
        kind: request.kind,
        body: request.body,
        createdAt: this.now().toISOString(),
      }),
    );
    if (inserted) this.notifyPosted({ taskId: request.taskId, recipient: request.recipient, messageId, kind: request.kind });
    return { messageId, duplicate: !inserted };
  }

  /**
   * Tells listeners (parked agents) about a message that is already durable: one this Inbox posted,
   * or one another component inserted in its own transaction (a monitor's event).
   */
  notifyPosted(message: Parameters<InboxListener>[0]): void {
    this.posted.emit(message);
  }

  /**
   * Delivers pending messages into a conversation, oldest first. `toEntry` turns a message into the
   * conversation entry that represents it. Returns what was delivered now.
   */
  async deliver(
    taskId: string,
    recipient: string,
    owner: string,
    turn: number,
    toEntry: (message: InboxRecord) => Json,
  ): Promise<InboxRecord[]> {
    // Most turns find nothing: a read says so without taking the write lock or a place in a batch.
    if ((await this.store.read((tx) => tx.inbox.pending(taskId, recipient))).length === 0) return [];
    const nowMs = this.now().getTime();
    const leased = await this.store.transaction((tx) =>
      tx.inbox.lease({ taskId, recipient, owner, nowMs, leaseUntilMs: nowMs + this.leaseMs, limit: 100 }),
    );
    const delivered: InboxRecord[] = [];
    for (const message of leased) {
      const saved = await this.store.transaction(async (tx) => {
        const at = this.now().toISOString();
        if (!(await tx.conversation.hasSource(taskId, recipient, message.messageId))) {
          await tx.conversation.append({ taskId, agentId: recipient, turn, message: toEntry(message), sourceMessageId: message.messageId, createdAt: at });
        }
        return tx.inbox.consume(message.messageId, at);
      });
      if (saved) delivered.push(message);
    }
    return delivered;
  }

  async pending(taskId: string, recipient?: string): Promise<InboxRecord[]> {
    return this.store.read((tx) => tx.inbox.pending(taskId, recipient));
  }

  /** Posts made here (this Inbox's, and those passed to `notifyPosted`): what this host's live clients are told of. */
  subscribe(listener: InboxListener): () => void {
    return this.posted.subscribe(listener);
  }

  /**
   * Posts that may wake a parked agent: those made here and, through the feed, every other host's,
   * so a message posted on another host wakes an agent parked on this one. A post may come twice
   * (made here, then read by the feed): it is a wake-up, not a delivery.
   */
  wakeups(listener: InboxListener): () => void {
    const stops = [this.posted.subscribe(listener), ...(this.feed ? [this.feed.subscribe(listener)] : [])];
    return () => stops.forEach((stop) => stop());
  }
}
