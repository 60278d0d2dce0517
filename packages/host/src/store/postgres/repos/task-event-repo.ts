import type { TaskEventRecord, TaskEventRepo } from '../../task-event-records';
import { toTaskEventRecord, type TaskEventRow } from '../../rows/task-event-row';
import { CHANNELS } from '../commit-listener';
import type { PgSession } from '../session';

export class PgTaskEventRepo implements TaskEventRepo {
  constructor(private readonly s: PgSession) {}

  /** One statement for the batch, in the order given; the last seq is announced on cowork_task_events. */
  async append(events: readonly Omit<TaskEventRecord, 'seq'>[]): Promise<number> {
    if (events.length === 0) return 0;
    const row = await this.s.first<{ seq: number | null }>(
      `WITH added AS (
         INSERT INTO task_events (origin, task_id, event, at)
         SELECT origin, task_id, event, at FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[]) WITH ORDINALITY AS e(origin, task_id, event, at, n) ORDER BY n
         RETURNING seq)
       SELECT MAX(seq) AS seq, pg_notify('${CHANNELS.task_events}', MAX(seq)::text) FROM added`,
      [events.map((e) => e.origin), events.map((e) => e.taskId), events.map((e) => JSON.stringify(e.event)), events.map((e) => e.at)],
    );
    return row?.seq ?? 0;
  }

  async after(afterSeq: number, limit: number): Promise<TaskEventRecord[]> {
    return (await this.s.rows<TaskEventRow>('SELECT * FROM task_events WHERE seq > $1 ORDER BY seq LIMIT $2', [afterSeq, limit])).map(toTaskEventRecord);
  }

  async lastSeq(): Promise<number> {
    return (await this.s.first<{ seq: number | null }>('SELECT MAX(seq) AS seq FROM task_events'))?.seq ?? 0;
  }

  async prune(beforeMs: number): Promise<number> {
    return this.s.changes('DELETE FROM task_events WHERE at < $1', [beforeMs]);
  }
}
