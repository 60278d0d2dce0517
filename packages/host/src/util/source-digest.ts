import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The file in dist/ where the build records the digest of the src/ it compiled. */
export const SOURCE_DIGEST_FILE = 'source-digest.txt';

/**
 * A SHA-256 over every file under `dir` (relative paths and bytes, in sorted order). The build
 * records it so a check can tell whether dist/ was built from the src/ on disk: modification times
 * cannot, since a build restored from Nx's cache keeps the times it was cached with.
 */
export function sourceDigest(dir: string): string {
  const hash = createHash('sha256');
  const walk = (folder: string, prefix: string): void => {
    const entries = readdirSync(folder, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const path = join(folder, entry.name);
      const rel = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      if (entry.isDirectory()) walk(path, rel);
      else if (entry.isFile()) hash.update(`${rel}\0`).update(readFileSync(path)).update('\0');
    }
  };
  walk(dir, '');
  return hash.digest('hex');
}
