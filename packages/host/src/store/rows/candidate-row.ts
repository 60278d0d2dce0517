import type { CandidateRecord, CandidateSource, CandidateStatus, Json, Operator } from '../records';
import type { Param, ParseStored } from './table';

export interface CandidateRow {
  id: string;
  resource_id: string;
  base_revision: number;
  ops: string;
  operator: string;
  source: string;
  draft_id: string | null;
  status: string;
  created_at: string;
  resolved_at: string | null;
  resolved_by: string | null;
  accepted_revision: number | null;
}

export const CANDIDATE_COLUMNS = ['id', 'resource_id', 'base_revision', 'ops', 'operator', 'source', 'draft_id', 'status', 'created_at', 'resolved_at', 'resolved_by', 'accepted_revision'] as const;

export function candidateValues(c: CandidateRecord): Param[] {
  return [c.id, c.resourceId, c.baseRevision, JSON.stringify(c.ops), c.operator, c.source, c.draftId, c.status, c.createdAt, c.resolvedAt, c.resolvedBy, c.acceptedRevision];
}

export function toCandidateRecord(row: CandidateRow, parse: ParseStored): CandidateRecord {
  return {
    id: row.id,
    resourceId: row.resource_id,
    baseRevision: row.base_revision,
    ops: parse<Json[]>(row.ops),
    operator: row.operator as Operator,
    source: row.source as CandidateSource,
    draftId: row.draft_id,
    status: row.status as CandidateStatus,
    createdAt: row.created_at,
    resolvedAt: row.resolved_at,
    resolvedBy: row.resolved_by as Operator | null,
    acceptedRevision: row.accepted_revision,
  };
}
