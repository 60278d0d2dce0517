import type { DraftRecord, DraftStatus, Json, Operator } from '../records';
import type { Param, ParseStored } from './table';

export interface DraftRow {
  id: string;
  resource_id: string;
  owner: string;
  base_revision: number;
  content: string;
  ops: string;
  status: string;
  created_at: string;
  updated_at: string;
}

export const DRAFT_COLUMNS = ['id', 'resource_id', 'owner', 'base_revision', 'content', 'ops', 'status', 'created_at', 'updated_at'] as const;

export function draftValues(d: DraftRecord): Param[] {
  return [d.id, d.resourceId, d.owner, d.baseRevision, JSON.stringify(d.content), JSON.stringify(d.ops), d.status, d.createdAt, d.updatedAt];
}

export function toDraftRecord(row: DraftRow, parse: ParseStored): DraftRecord {
  return {
    id: row.id,
    resourceId: row.resource_id,
    owner: row.owner as Operator,
    baseRevision: row.base_revision,
    content: parse(row.content),
    ops: parse<Json[]>(row.ops),
    status: row.status as DraftStatus,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
