import type { Migration } from '../../sqlite/migrations/migration';
import { KEY } from './types';

/** Tasks' published results (see store/publication-records.ts): listing reads these, never the disk. */
export const publicationsMigration: Migration = {
  version: 8,
  name: 'publications',
  sql: `
      CREATE TABLE publications (
        id ${KEY} PRIMARY KEY,
        task_id ${KEY} NOT NULL,
        source text NOT NULL,
        revision bigint,
        commit_sha text,
        file_name text NOT NULL,
        media_type text NOT NULL,
        sha256 text NOT NULL,
        bytes bigint NOT NULL,
        published_at ${KEY} NOT NULL,
        operator ${KEY} NOT NULL,
        idempotency_key ${KEY} UNIQUE
      );
      CREATE INDEX publications_by_task ON publications (task_id, published_at);
    `,
};
