import type { AnnouncedTable, Store, StoreTx } from './store';

/** How many rows one read takes while catching up. */
const PAGE = 500;

export interface AppendFollowerOptions<Row extends { readonly seq: number }> {
  /** The newest seq now: where following starts (what came before is not this host's news). */
  lastSeq(tx: StoreTx): Promise<number>;
  /** Rows with seq above `afterSeq`, oldest first, at most `limit`. */
  after(tx: StoreTx, afterSeq: number, limit: number): Promise<Row[]>;
  /** Each new row, in seq order. */
  onRow(row: Row): void;
  /** A failed read; the next announcement reads again from the same cursor. */
  onError?(error: unknown): void;
}

/**
 * Follows the rows other hosts append to one of the store's announced tables (PostgreSQL's
 * LISTEN/NOTIFY, see Store.watchAppends): an announcement carries only a seq, and the rows are
 * read after this follower's cursor, page by page, so none is skipped even when announcements were
 * lost (a reconnect announces with no seq), and each is handed on once, in seq order. Seq order is
 * commit order: rows are appended under the store's write lock. One read at a time; announcements
 * that arrive meanwhile are covered by one more read.
 */
export class AppendFollower<Row extends { readonly seq: number }> {
  private cursor = 0;
  private started = false;
  private reading = false;
  private again = false;
  private closed = false;
  private readonly stop: () => void;

  private constructor(
    private readonly store: Store,
    table: AnnouncedTable,
    private readonly options: AppendFollowerOptions<Row>,
  ) {
    this.stop = store.watchAppends(table, (seq) => this.announced(seq));
  }

  /** Listens first, then reads where to start: an append between the two is read, not missed. */
  static async start<Row extends { readonly seq: number }>(store: Store, table: AnnouncedTable, options: AppendFollowerOptions<Row>): Promise<AppendFollower<Row>> {
    const follower = new AppendFollower(store, table, options);
    try {
      follower.cursor = await store.read((tx) => options.lastSeq(tx));
    } catch (error) {
      follower.close();
      throw error;
    }
    follower.started = true;
    if (follower.again) void follower.read();
    return follower;
  }

  close(): void {
    this.closed = true;
    this.stop();
  }

  private announced(seq: number | undefined): void {
    if (this.closed) return;
    if (!this.started) {
      this.again = true;
      return;
    }
    if (seq !== undefined && seq <= this.cursor) return;
    void this.read();
  }

  private async read(): Promise<void> {
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = true;
    try {
      do {
        this.again = false;
        for (;;) {
          const rows = await this.store.read((tx) => this.options.after(tx, this.cursor, PAGE));
          for (const row of rows) {
            if (this.closed) return;
            this.cursor = row.seq;
            this.options.onRow(row);
          }
          if (rows.length < PAGE) break;
        }
      } while (this.again && !this.closed);
    } catch (error) {
      if (!this.closed) this.options.onError?.(error);
    } finally {
      this.reading = false;
    }
  }
}
