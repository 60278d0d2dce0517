import type { InboxKind, InboxPost, InboxRecord } from '../agent-records';
import { parseStored } from '../../util/json';

export interface InboxRow {
  seq: number;
  message_id: string;
  task_id: string;
  recipient: string;
  sender: string;
  kind: string;
  body: string;
  created_at: string;
  lease_owner: string | null;
  lease_until: number | null;
  consumed_at: string | null;
}

export function toInboxRecord(row: InboxRow): InboxRecord {
  return {
    seq: row.seq,
    messageId: row.message_id,
    taskId: row.task_id,
    recipient: row.recipient,
    sender: row.sender,
    kind: row.kind as InboxKind,
    body: parseStored(row.body),
    createdAt: row.created_at,
    leaseOwner: row.lease_owner,
    leaseUntil: row.lease_until,
    consumedAt: row.consumed_at,
  };
}

export type InboxPostRow = Pick<InboxRow, 'seq' | 'message_id' | 'task_id' | 'recipient' | 'kind' | 'consumed_at'>;

export function toInboxPost(row: InboxPostRow): InboxPost {
  return { seq: row.seq, messageId: row.message_id, taskId: row.task_id, recipient: row.recipient, kind: row.kind as InboxKind, consumedAt: row.consumed_at };
}
