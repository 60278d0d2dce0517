import { randomBytes } from 'node:crypto';

/**
 * A new id like `res_lx2k9a1b_8f3c2d1e9a7b`: the prefix names what it identifies, the time part makes
 * ids sort roughly by creation, the random part makes them unique across processes.
 */
export function newId(prefix: string, now: number = Date.now()): string {
  return `${prefix}_${now.toString(36).padStart(9, '0')}${randomBytes(6).toString('hex')}`;
}
