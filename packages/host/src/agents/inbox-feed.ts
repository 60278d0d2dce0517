import { AppendFollower } from '../store/append-follower';
import type { InboxPost } from '../store/agent-records';
import type { Store } from '../store/store';
import { Emitter } from '../util/emitter';
import type { InboxListener } from './inbox';

/**
 * Every host's Inbox posts, as this host learns of them (PostgreSQL; none on SQLite, one machine):
 * a person's message posted through another host's server, a monitor polled by another host, wakes
 * an agent parked here. Started when the host opens, so every post after that is seen; a post
 * already consumed when it is read wakes no one (its recipient was not parked).
 */
export class InboxFeed {
  private constructor(
    private readonly posts: Emitter<Parameters<InboxListener>[0]>,
    private readonly follower: AppendFollower<InboxPost>,
  ) {}

  /** The feed of a store that announces appends; undefined for one that does not. */
  static async start(store: Store, onError?: (error: unknown) => void): Promise<InboxFeed | undefined> {
    if (!store.announcesAppends) return undefined;
    const posts = new Emitter<Parameters<InboxListener>[0]>(onError);
    const follower = await AppendFollower.start<InboxPost>(store, 'inbox', {
      lastSeq: (tx) => tx.inbox.lastSeq(),
      after: (tx, seq, limit) => tx.inbox.after(seq, limit),
      onRow: (post) => {
        if (post.consumedAt === null) posts.emit({ taskId: post.taskId, recipient: post.recipient, messageId: post.messageId, kind: post.kind });
      },
      onError,
    });
    return new InboxFeed(posts, follower);
  }

  subscribe(listener: InboxListener): () => void {
    return this.posts.subscribe(listener);
  }

  close(): void {
    this.follower.close();
  }
}
