import { createHash } from 'node:crypto';
import { CoworkError } from '../errors';
import { canonicalJson } from '../util/json';
import type { Json } from './records';
import type { StoreTx } from './store';

/**
 * The one idempotency scheme of the host. A key is scoped to what it protects (`commit <resource>`,
 * `create`, `job`, ...) and stored with a fingerprint of the request it came with, in the same
 * transaction as the effect. A repeated request (same scope, key and fingerprint) gets the recorded
 * result instead of acting twice; the same key with a different request is refused
 * (`idempotency_key_reused`), as payment APIs do, never answered with another request's result.
 */
export class IdempotencyClaim {
  private constructor(
    readonly scope: string,
    readonly key: string,
    private readonly fingerprint: string,
  ) {}

  /** The claim of a request that carries `key` (none without one). `request` is what makes it this request. */
  static of(scope: string, key: string | undefined, request: unknown): IdempotencyClaim | undefined {
    if (key === undefined) return undefined;
    return new IdempotencyClaim(scope, key, createHash('sha256').update(canonicalJson(request) ?? 'undefined').digest('hex'));
  }

  /** The result recorded for this key, or undefined when it is new; throws when it was used for another request. */
  async prior(tx: StoreTx): Promise<Json | undefined> {
    const recorded = await tx.idempotency.get(this.scope, this.key);
    if (!recorded) return undefined;
    if (recorded.fingerprint !== this.fingerprint) {
      throw new CoworkError('idempotency_key_reused', `idempotency key ${JSON.stringify(this.key)} was already used for a different ${this.scope} request; use a new key for a new request`, {
        scope: this.scope,
        idempotencyKey: this.key,
      });
    }
    return recorded.result;
  }

  /** Records the result, in the transaction that made the effect. */
  async record(tx: StoreTx, result: Json, at: string): Promise<void> {
    await tx.idempotency.put({ scope: this.scope, key: this.key, fingerprint: this.fingerprint, result, at });
  }
}
