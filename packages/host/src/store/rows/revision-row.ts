import type { Operator, RevisionAction, RevisionRecord } from '../records';
import type { RevisionQuery } from '../store';
import type { ParseStored } from './table';

export interface RevisionRow {
  resource_id: string;
  revision: number;
  action: string;
  op: string;
  operator: string;
  created_at: string;
}

/** A revision query as `selectWhere` filters (`?` placeholders; a filter whose value is undefined is left out). */
export function revisionFilters(resourceId: string, query: RevisionQuery) {
  return [
    ['resource_id = ?', resourceId],
    ['revision > ?', query.after],
    ['revision <= ?', query.upTo],
    ['operator <> ?', query.excludeOperator],
  ] as const;
}

/** The columns a revision's record is read from (its snapshot is read apart). */
export const REVISION_SELECT = 'SELECT resource_id, revision, action, op, operator, created_at FROM revisions';

export function toRevisionRecord(row: RevisionRow, parse: ParseStored): RevisionRecord {
  return {
    resourceId: row.resource_id,
    revision: row.revision,
    action: row.action as RevisionAction,
    op: parse(row.op),
    operator: row.operator as Operator,
    createdAt: row.created_at,
  };
}
