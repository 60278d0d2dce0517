import type { CompactionRecord } from '../agent-records';
import { parseStored } from '../../util/json';

export interface CompactionRow {
  task_id: string;
  agent_id: string;
  seq: number;
  summarised_to_seq: number;
  summary: string;
  dropped: string;
  created_at: string;
}

export function toCompactionRecord(row: CompactionRow): CompactionRecord {
  return {
    taskId: row.task_id,
    agentId: row.agent_id,
    seq: row.seq,
    summarisedToSeq: row.summarised_to_seq,
    summary: row.summary,
    dropped: parseStored(row.dropped),
    createdAt: row.created_at,
  };
}
