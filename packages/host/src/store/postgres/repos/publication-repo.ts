import type { PublicationRecord, PublicationRepo } from '../../publication-records';
import { PUBLICATION_COLUMNS, publicationValues, toPublicationRecord, type PublicationRow } from '../../rows/publication-row';
import { insertSql } from '../../rows/table';
import type { PgSession } from '../session';
import { pgPlaceholder } from './placeholders';

const INSERT = insertSql('publications', PUBLICATION_COLUMNS, pgPlaceholder);

export class PgPublicationRepo implements PublicationRepo {
  constructor(private readonly s: PgSession) {}

  async insert(p: PublicationRecord): Promise<void> {
    await this.s.changes(INSERT, publicationValues(p));
  }

  async get(id: string): Promise<PublicationRecord | undefined> {
    const row = await this.s.first<PublicationRow>('SELECT * FROM publications WHERE id = $1', [id]);
    return row && toPublicationRecord(row);
  }

  async byIdempotencyKey(key: string): Promise<PublicationRecord | undefined> {
    const row = await this.s.first<PublicationRow>('SELECT * FROM publications WHERE idempotency_key = $1', [key]);
    return row && toPublicationRecord(row);
  }

  async list(taskId: string): Promise<PublicationRecord[]> {
    return (await this.s.rows<PublicationRow>('SELECT * FROM publications WHERE task_id = $1 ORDER BY published_at, id', [taskId])).map(toPublicationRecord);
  }
}
