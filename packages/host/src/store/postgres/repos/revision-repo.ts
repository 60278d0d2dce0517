import type { Json, RevisionRecord } from '../../records';
import type { RevisionQuery, RevisionRepo } from '../../store';
import { REVISION_SELECT, revisionFilters, toRevisionRecord, type RevisionRow } from '../../rows/revision-row';
import { parseStored } from '../../../util/json';
import type { PgSession } from '../session';

export class PgRevisionRepo implements RevisionRepo {
  constructor(private readonly s: PgSession) {}

  async insert(r: RevisionRecord, stored: { readonly op?: string; readonly snapshot?: string } = {}): Promise<void> {
    await this.s.changes('INSERT INTO revisions (resource_id, revision, action, op, operator, created_at, snapshot) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
      r.resourceId,
      r.revision,
      r.action,
      stored.op ?? JSON.stringify(r.op),
      r.operator,
      r.createdAt,
      stored.snapshot ?? null,
    ]);
  }

  async list(resourceId: string, query: RevisionQuery = {}): Promise<RevisionRecord[]> {
    const rows = await this.s.selectWhere<RevisionRow>(REVISION_SELECT, revisionFilters(resourceId, query), 'ORDER BY revision LIMIT ?', [query.limit ?? null]);
    return rows.map((row) => toRevisionRecord(row, parseStored));
  }

  async snapshotAtOrBefore(resourceId: string, revision: number): Promise<{ revision: number; content: Json } | undefined> {
    const row = await this.s.first<{ revision: number; snapshot: string }>(
      `SELECT revision, snapshot FROM revisions
       WHERE resource_id = $1 AND revision <= $2 AND snapshot IS NOT NULL
       ORDER BY revision DESC LIMIT 1`,
      [resourceId, revision],
    );
    return row && { revision: row.revision, content: parseStored(row.snapshot) };
  }
}
