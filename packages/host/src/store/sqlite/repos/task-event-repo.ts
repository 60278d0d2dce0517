import type { Database, Statement } from 'better-sqlite3';
import type { TaskEventRecord, TaskEventRepo } from '../../task-event-records';
import { toTaskEventRecord, type TaskEventRow } from '../../rows/task-event-row';
import { BOUND_LIMIT } from './query';

export class SqliteTaskEventRepo implements TaskEventRepo {
  private readonly insertStmt: Statement;
  private readonly afterStmt: Statement<[number, number], TaskEventRow>;
  private readonly lastStmt: Statement<[], { seq: number | null }>;
  private readonly pruneStmt: Statement;

  constructor(db: Database) {
    this.insertStmt = db.prepare('INSERT INTO task_events (origin, task_id, event, at) VALUES (?, ?, ?, ?) RETURNING seq');
    this.afterStmt = db.prepare(`SELECT * FROM task_events WHERE seq > ? ORDER BY seq ${BOUND_LIMIT}`);
    this.lastStmt = db.prepare('SELECT MAX(seq) AS seq FROM task_events');
    this.pruneStmt = db.prepare('DELETE FROM task_events WHERE at < ?');
  }

  async append(events: readonly Omit<TaskEventRecord, 'seq'>[]): Promise<number> {
    let last = 0;
    for (const e of events) last = (this.insertStmt.get(e.origin, e.taskId, JSON.stringify(e.event), e.at) as { seq: number }).seq;
    return last;
  }

  async after(afterSeq: number, limit: number): Promise<TaskEventRecord[]> {
    return this.afterStmt.all(afterSeq, limit).map(toTaskEventRecord);
  }

  async lastSeq(): Promise<number> {
    return this.lastStmt.get()?.seq ?? 0;
  }

  async prune(beforeMs: number): Promise<number> {
    return this.pruneStmt.run(beforeMs).changes;
  }
}
