import type { Migration } from './migration';

/** A resource's title, which people give it when they create or import it (null: none; shown by its id). */
export const resourceTitlesMigration: Migration = {
  version: 11,
  name: 'resource-titles',
  sql: `ALTER TABLE resources ADD COLUMN title TEXT;`,
};
