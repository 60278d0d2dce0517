import type { PublicationRecord } from '../publication-records';
import type { Operator } from '../records';
import { parseStored } from '../../util/json';
import type { Param } from './table';

export interface PublicationRow {
  id: string;
  task_id: string;
  source: string;
  revision: number | null;
  commit_sha: string | null;
  file_name: string;
  media_type: string;
  sha256: string;
  bytes: number;
  published_at: string;
  operator: string;
  idempotency_key: string | null;
}

export const PUBLICATION_COLUMNS = ['id', 'task_id', 'source', 'revision', 'commit_sha', 'file_name', 'media_type', 'sha256', 'bytes', 'published_at', 'operator', 'idempotency_key'] as const;

export function publicationValues(p: PublicationRecord): Param[] {
  return [p.id, p.taskId, JSON.stringify(p.source), p.revision, p.commit, p.fileName, p.mediaType, p.sha256, p.bytes, p.publishedAt, p.operator, p.idempotencyKey];
}

export function toPublicationRecord(row: PublicationRow): PublicationRecord {
  return {
    id: row.id,
    taskId: row.task_id,
    source: parseStored(row.source),
    revision: row.revision,
    commit: row.commit_sha,
    fileName: row.file_name,
    mediaType: row.media_type,
    sha256: row.sha256,
    bytes: row.bytes,
    publishedAt: row.published_at,
    operator: row.operator as Operator,
    idempotencyKey: row.idempotency_key,
  };
}
