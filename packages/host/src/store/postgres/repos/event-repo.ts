import type { EventRecord, Json } from '../../records';
import type { EventRepo } from '../../store';
import { toEventRecord, type EventRow } from '../../rows/event-row';
import { CHANNELS } from '../commit-listener';
import type { PgSession } from '../session';

/** The event log is append-only: this repo has no update or delete. */
export class PgEventRepo implements EventRepo {
  constructor(private readonly s: PgSession) {}

  async append(e: { type: string; at: string; data: Json }): Promise<number> {
    // MAX+1 under the write lock (see postgres-store.ts): no gaps, even after a rolled-back append.
    // Announced to every host (its seq on cowork_events): their coordinators fold it in at once.
    const row = await this.s.first<{ seq: number }>(
      `WITH added AS (INSERT INTO events (seq, type, at, data) SELECT COALESCE(MAX(seq), 0) + 1, $1, $2, $3 FROM events RETURNING seq)
       SELECT seq, pg_notify('${CHANNELS.events}', seq::text) FROM added`,
      [e.type, e.at, JSON.stringify(e.data)],
    );
    return row!.seq;
  }

  async list(afterSeq: number, limit?: number): Promise<EventRecord[]> {
    return (await this.s.rows<EventRow>('SELECT * FROM events WHERE seq > $1 ORDER BY seq LIMIT $2', [afterSeq, limit === undefined || limit < 0 ? null : limit])).map(toEventRecord);
  }

  async lastSeq(): Promise<number> {
    return (await this.s.first<{ seq: number | null }>('SELECT MAX(seq) AS seq FROM events'))?.seq ?? 0;
  }
}
