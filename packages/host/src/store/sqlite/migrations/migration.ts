/**
 * One versioned schema change. Versions are assigned in order and never reused; a shipped
 * migration is never edited (add a new one instead). Each runs in its own transaction together with
 * its `schema_migrations` row.
 */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}
