import pg from 'pg';
import type { AnnouncedTable } from '../store';

/**
 * The channels the store NOTIFYs on, each from inside the writing transaction (a rollback sends
 * none, and notifications arrive in commit order). `commits`: every write batch, no payload. The
 * others: a row was appended to that table, the payload its seq (the newest, for a batch of rows).
 */
export const CHANNELS: { readonly commits: string } & Readonly<Record<AnnouncedTable, string>> = {
  commits: 'cowork_commits',
  inbox: 'cowork_inbox',
  events: 'cowork_events',
  task_events: 'cowork_task_events',
};

export const COMMITS_CHANNEL = CHANNELS.commits;

/** A notification's payload; `undefined` after (re)connecting, when some may have been missed. */
export type ChannelListener = (payload: string | undefined) => void;

/** How long to wait before listening again after the connection dropped. */
const RECONNECT_MS = 1000;

/**
 * One LISTEN connection per store, opened when the first listener subscribes, listening on every
 * channel: a commit on the database, by any host, wakes the listeners of its channels. A wake-up
 * only: what changed is read from the tables (revisions, Inbox rows, events, after the reader's
 * own cursor), so a notification lost while reconnecting costs latency, never data or order; every
 * listener is called once with no payload when the connection is (re)made, to read what it missed.
 */
export class CommitListener {
  private readonly listeners = new Map<string, Set<ChannelListener>>();
  private client: pg.Client | undefined;
  private retry: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly url: string) {}

  subscribe(channel: string, listener: ChannelListener): () => void {
    let set = this.listeners.get(channel);
    if (!set) this.listeners.set(channel, (set = new Set()));
    set.add(listener);
    if (!this.client && !this.retry) void this.connect();
    return () => set.delete(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private emit(channel: string, payload: string | undefined): void {
    for (const listener of this.listeners.get(channel) ?? []) listener(payload);
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.url, keepAlive: true, application_name: 'cowork-listen' });
    this.client = client;
    const lost = (): void => {
      if (this.client !== client) return;
      this.client = undefined;
      void client.end().catch(() => undefined);
      if (!this.closed) (this.retry = setTimeout(() => ((this.retry = undefined), void this.connect()), RECONNECT_MS)).unref();
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (n) => this.emit(n.channel, n.payload === '' ? undefined : n.payload));
    try {
      await client.connect();
      await client.query(Object.values(CHANNELS).map((channel) => `LISTEN ${channel}`).join('; '));
      // Commits made while not listening: one wake-up per channel covers them.
      for (const channel of Object.values(CHANNELS)) this.emit(channel, undefined);
    } catch {
      lost();
    }
  }
}
