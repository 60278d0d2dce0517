import type { ResourceRecord } from '../records';
import type { ParseStored } from './table';

export interface ResourceRow {
  id: string;
  kind: string;
  revision: number;
  content: string;
  /** Absent from stores that predate titles. */
  title?: string | null;
  created_at: string;
  updated_at: string;
}

export function toResourceRecord(row: ResourceRow, parse: ParseStored): ResourceRecord {
  return {
    id: row.id,
    kind: row.kind,
    revision: row.revision,
    content: parse(row.content),
    ...(row.title != null ? { title: row.title } : {}),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
