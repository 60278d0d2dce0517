import pg from 'pg';

/** The channel every write batch notifies on commit (the NOTIFY is in the transaction: a rollback sends none). */
export const COMMITS_CHANNEL = 'cowork_commits';

/** How long to wait before listening again after the connection dropped. */
const RECONNECT_MS = 1000;

/**
 * One LISTEN connection per store, opened when the first listener subscribes: every commit on
 * the database, by any host, wakes the listeners. A wake-up only: what changed is read from the
 * tables (revisions, events), so a notification lost while reconnecting costs latency (the
 * callers' polls find it), never data or order.
 */
export class CommitListener {
  private readonly listeners = new Set<() => void>();
  private client: pg.Client | undefined;
  private retry: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly url: string) {}

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    if (!this.client && !this.retry) void this.connect();
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
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
    client.on('notification', () => {
      for (const listener of this.listeners) listener();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${COMMITS_CHANNEL}`);
      // Commits made while not listening: one wake-up covers them.
      for (const listener of this.listeners) listener();
    } catch {
      lost();
    }
  }
}
