import { createHash } from 'node:crypto';

/** The sha256 of bytes or text, hex. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
