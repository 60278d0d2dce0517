import type { EventRecord } from '../records';
import { parseStored } from '../../util/json';

export interface EventRow {
  seq: number;
  type: string;
  at: string;
  data: string;
}

export function toEventRecord(row: EventRow): EventRecord {
  return { seq: row.seq, type: row.type, at: row.at, data: parseStored(row.data) };
}
