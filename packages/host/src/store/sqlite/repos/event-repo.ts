import type { Database, Statement } from 'better-sqlite3';
import type { EventRecord, Json } from '../../records';
import type { EventRepo } from '../../store';
import { toEventRecord, type EventRow } from '../../rows/event-row';
import { BOUND_LIMIT } from './query';

/** The event log is append-only: this repo has no update or delete. */
export class SqliteEventRepo implements EventRepo {
  private readonly appendStmt: Statement;
  private readonly listStmt: Statement<[number, number], EventRow>;
  private readonly lastStmt: Statement<[], { seq: number | null }>;

  constructor(db: Database) {
    // seq is MAX+1 inside the write transaction, so it has no gaps even after a rolled-back append.
    this.appendStmt = db.prepare(
      'INSERT INTO events (seq, type, at, data) VALUES ((SELECT COALESCE(MAX(seq), 0) + 1 FROM events), ?, ?, ?) RETURNING seq',
    );
    this.listStmt = db.prepare(`SELECT * FROM events WHERE seq > ? ORDER BY seq ${BOUND_LIMIT}`);
    this.lastStmt = db.prepare('SELECT MAX(seq) AS seq FROM events');
  }

  async append(e: { type: string; at: string; data: Json }): Promise<number> {
    const row = this.appendStmt.get(e.type, e.at, JSON.stringify(e.data)) as { seq: number };
    return row.seq;
  }

  async list(afterSeq: number, limit = -1): Promise<EventRecord[]> {
    return this.listStmt.all(afterSeq, limit).map(toEventRecord);
  }

  async lastSeq(): Promise<number> {
    return this.lastStmt.get()?.seq ?? 0;
  }
}
