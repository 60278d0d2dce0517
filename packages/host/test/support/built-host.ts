import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The host package's folder: tests that run the real `cowork` bin run `bin/cowork.js` there. */
export const hostDir = resolve(__dirname, '..', '..');

/**
 * Fails when dist/ is older than its source. The bin runs dist/, which the build target makes before
 * tests (`nx run host:test` depends on it); a test never writes build outputs itself, or a server
 * started from dist/ afterwards would serve what the test left there.
 */
export function requireCurrentBuild(): void {
  const stale = staleOutputs(join(hostDir, 'src'), join(hostDir, 'dist'));
  if (stale.length > 0) throw new Error(`dist/ is older than its source (${stale.slice(0, 3).join(', ')}); run \`npx nx run host:build\` first`);
}

/** Sources under `src` whose compiled `.js` in `dist` is missing or older than they are. */
function staleOutputs(src: string, dist: string): string[] {
  const stale: string[] = [];
  for (const entry of readdirSync(src, { withFileTypes: true })) {
    const source = join(src, entry.name);
    if (entry.isDirectory()) {
      stale.push(...staleOutputs(source, join(dist, entry.name)));
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
      const output = join(dist, entry.name.replace(/\.ts$/, '.js'));
      if (!existsSync(output) || statSync(output).mtimeMs < statSync(source).mtimeMs) stale.push(source);
    }
  }
  return stale;
}
