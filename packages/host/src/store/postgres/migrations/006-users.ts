import type { Migration } from '../../sqlite/migrations/migration';
import { KEY } from './types';

/** People the owner added, each with a hashed token (see store/user-records.ts). */
export const usersMigration: Migration = {
  version: 6,
  name: 'users',
  sql: `
      CREATE TABLE users (
        name ${KEY} PRIMARY KEY,
        role text NOT NULL CHECK (role IN ('editor', 'viewer')),
        token_hash ${KEY} NOT NULL UNIQUE,
        created_at ${KEY} NOT NULL,
        revoked_at ${KEY}
      );
    `,
};
