import type { Json, ResourceRecord } from '../../records';
import type { ResourceRepo } from '../../store';
import { toResourceRecord, type ResourceRow } from '../../rows/resource-row';
import { parseStored } from '../../../util/json';
import type { PgSession } from '../session';

export class PgResourceRepo implements ResourceRepo {
  constructor(private readonly s: PgSession) {}

  async insert(r: ResourceRecord, storedContent?: string): Promise<void> {
    await this.s.changes('INSERT INTO resources (id, kind, revision, content, title, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
      r.id,
      r.kind,
      r.revision,
      storedContent ?? JSON.stringify(r.content),
      r.title ?? null,
      r.createdAt,
      r.updatedAt,
    ]);
  }

  async get(id: string): Promise<ResourceRecord | undefined> {
    const row = await this.s.first<ResourceRow>('SELECT * FROM resources WHERE id = $1', [id]);
    return row && toResourceRecord(row, parseStored);
  }

  async headRevision(id: string): Promise<number | undefined> {
    return (await this.s.first<{ revision: number }>('SELECT revision FROM resources WHERE id = $1', [id]))?.revision;
  }

  async list(options: { kind?: string; limit?: number } = {}): Promise<ResourceRecord[]> {
    const rows = await this.s.selectWhere<ResourceRow>('SELECT * FROM resources', [['kind = ?', options.kind || undefined]], 'ORDER BY created_at, id LIMIT ?', [options.limit ?? null]);
    return rows.map((row) => toResourceRecord(row, parseStored));
  }

  /** A conditional UPDATE: a row-level compare-and-set, whatever else the transaction holds. */
  async advanceHead(id: string, expectedRevision: number, next: { revision: number; content: Json; updatedAt: string; serialized?: string }): Promise<boolean> {
    const text = next.serialized ?? JSON.stringify(next.content);
    return (await this.s.changes('UPDATE resources SET revision = $1, content = $2, updated_at = $3 WHERE id = $4 AND revision = $5', [next.revision, text, next.updatedAt, id, expectedRevision])) === 1;
  }
}
