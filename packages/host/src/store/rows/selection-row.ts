import type { Operator, SelectionRecord } from '../records';
import { parseStored } from '../../util/json';

export interface SelectionRow {
  resource_id: string;
  person: string;
  selection: string;
  updated_at: string;
}

export function toSelectionRecord(row: SelectionRow): SelectionRecord {
  return {
    resourceId: row.resource_id,
    person: row.person as Operator,
    selection: parseStored(row.selection),
    updatedAt: row.updated_at,
  };
}
