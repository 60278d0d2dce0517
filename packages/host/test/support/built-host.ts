import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SOURCE_DIGEST_FILE, sourceDigest } from '../../src/util/source-digest';

/** The host package's folder: tests that run the real `cowork` bin run `bin/cowork.js` there. */
export const hostDir = resolve(__dirname, '..', '..');

/**
 * Fails unless dist/ was built from the src/ on disk (the digest the build recorded). The bin runs
 * dist/, which the build target makes before tests (`nx run host:test` depends on it); a test never
 * writes build outputs itself, or a server started from dist/ afterwards would serve what the test
 * left there.
 */
export function requireCurrentBuild(): void {
  const recorded = join(hostDir, 'dist', SOURCE_DIGEST_FILE);
  const built = existsSync(recorded) ? readFileSync(recorded, 'utf8').trim() : undefined;
  if (built !== sourceDigest(join(hostDir, 'src'))) {
    throw new Error(`dist/ was not built from the current src/ (${built === undefined ? `no ${SOURCE_DIGEST_FILE}` : 'its source digest differs'}); run \`npx nx run host:build\` first`);
  }
}
