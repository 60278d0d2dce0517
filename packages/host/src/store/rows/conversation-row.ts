import type { ConversationRecord } from '../agent-records';
import { parseStored } from '../../util/json';

export interface ConversationRow {
  task_id: string;
  agent_id: string;
  seq: number;
  turn: number;
  message: string;
  source_message_id: string | null;
  created_at: string;
}

export function toConversationRecord(row: ConversationRow): ConversationRecord {
  return {
    taskId: row.task_id,
    agentId: row.agent_id,
    seq: row.seq,
    turn: row.turn,
    message: parseStored(row.message),
    sourceMessageId: row.source_message_id,
    createdAt: row.created_at,
  };
}
