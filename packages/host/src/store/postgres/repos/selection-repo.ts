import type { Operator, SelectionRecord } from '../../records';
import type { SelectionRepo } from '../../store';
import { toSelectionRecord, type SelectionRow } from '../../rows/selection-row';
import type { PgSession } from '../session';

export class PgSelectionRepo implements SelectionRepo {
  constructor(private readonly s: PgSession) {}

  async put(r: SelectionRecord): Promise<void> {
    await this.s.changes(
      `INSERT INTO selections (resource_id, person, selection, updated_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (resource_id, person) DO UPDATE SET selection = excluded.selection, updated_at = excluded.updated_at`,
      [r.resourceId, r.person, JSON.stringify(r.selection), r.updatedAt],
    );
  }

  async get(resourceId: string, person: Operator): Promise<SelectionRecord | undefined> {
    const row = await this.s.first<SelectionRow>('SELECT * FROM selections WHERE resource_id = $1 AND person = $2', [resourceId, person]);
    return row && toSelectionRecord(row);
  }

  async list(resourceId: string): Promise<SelectionRecord[]> {
    return (await this.s.rows<SelectionRow>('SELECT * FROM selections WHERE resource_id = $1 ORDER BY person', [resourceId])).map(toSelectionRecord);
  }
}
