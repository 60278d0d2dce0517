import type { TaskEventRecord } from '../task-event-records';
import { parseStored } from '../../util/json';

export interface TaskEventRow {
  seq: number;
  origin: string;
  task_id: string;
  event: string;
  at: number;
}

export function toTaskEventRecord(row: TaskEventRow): TaskEventRecord {
  return { seq: row.seq, origin: row.origin, taskId: row.task_id, event: parseStored(row.event), at: row.at };
}
