import type { DraftRecord } from '../../records';
import type { DraftRepo } from '../../store';
import { DRAFT_COLUMNS, draftValues, toDraftRecord, type DraftRow } from '../../rows/draft-row';
import { insertSql } from '../../rows/table';
import { parseStored } from '../../../util/json';
import type { PgSession } from '../session';
import { pgPlaceholder } from './placeholders';

const INSERT = insertSql('drafts', DRAFT_COLUMNS, pgPlaceholder);

export class PgDraftRepo implements DraftRepo {
  constructor(private readonly s: PgSession) {}

  async insert(d: DraftRecord): Promise<void> {
    await this.s.changes(INSERT, draftValues(d));
  }

  async get(id: string): Promise<DraftRecord | undefined> {
    const row = await this.s.first<DraftRow>('SELECT * FROM drafts WHERE id = $1', [id]);
    return row && toDraftRecord(row, parseStored);
  }

  async update(id: string, p: Pick<DraftRecord, 'content' | 'ops' | 'status' | 'updatedAt'>): Promise<void> {
    await this.s.changes('UPDATE drafts SET content = $1, ops = $2, status = $3, updated_at = $4 WHERE id = $5', [JSON.stringify(p.content), JSON.stringify(p.ops), p.status, p.updatedAt, id]);
  }
}
