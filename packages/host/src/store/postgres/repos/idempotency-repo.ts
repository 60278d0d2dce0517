import type { IdempotencyRecord, IdempotencyRepo } from '../../store';
import { parseStored } from '../../../util/json';
import type { PgSession } from '../session';

export class PgIdempotencyRepo implements IdempotencyRepo {
  constructor(private readonly s: PgSession) {}

  async get(scope: string, key: string): Promise<IdempotencyRecord | undefined> {
    const row = await this.s.first<{ fingerprint: string; result: string }>('SELECT fingerprint, result FROM idempotency WHERE scope = $1 AND key = $2', [scope, key]);
    return row && { scope, key, fingerprint: row.fingerprint, result: parseStored(row.result) };
  }

  async put(r: IdempotencyRecord & { readonly at: string }): Promise<void> {
    await this.s.changes('INSERT INTO idempotency (scope, key, fingerprint, result, created_at) VALUES ($1, $2, $3, $4, $5)', [r.scope, r.key, r.fingerprint, JSON.stringify(r.result), r.at]);
  }
}
