import { randomFillSync } from 'node:crypto';

/** Random bytes are drawn from the OS this many at a time: one `randomBytes` call per id cost a commit profile 6%. */
const POOL_BYTES = 4096;
const ID_RANDOM_BYTES = 6;
const pool = Buffer.allocUnsafe(POOL_BYTES);
let used = POOL_BYTES;

/**
 * A new id like `res_lx2k9a1b_8f3c2d1e9a7b`: the prefix names what it identifies, the time part makes
 * ids sort roughly by creation, the random part makes them unique across processes.
 */
export function newId(prefix: string, now: number = Date.now()): string {
  if (used + ID_RANDOM_BYTES > POOL_BYTES) {
    randomFillSync(pool);
    used = 0;
  }
  const random = pool.toString('hex', used, used + ID_RANDOM_BYTES);
  used += ID_RANDOM_BYTES;
  return `${prefix}_${now.toString(36).padStart(9, '0')}${random}`;
}
