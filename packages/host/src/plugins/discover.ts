import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The plugins installed where the host runs: packages in any `node_modules` from `fromDir` up to
 * the root whose package.json says `"cowork": {"plugin": true}` (or has the keyword
 * `cowork-plugin`). Manifest first: only package.json files are read, nothing is imported here.
 * Returns package names, sorted, for the loader to import.
 */
export function discoverInstalledPlugins(fromDir: string): string[] {
  const found = new Set<string>();
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const modules = join(dir, 'node_modules');
    if (existsSync(modules)) for (const name of packagesIn(modules)) if (isCoworkPlugin(join(modules, name))) found.add(name);
    if (dirname(dir) === dir) break;
  }
  return [...found].sort();
}

function packagesIn(modules: string): string[] {
  const names: string[] = [];
  for (const entry of safeList(modules)) {
    if (entry.startsWith('.')) continue;
    if (entry.startsWith('@')) for (const scoped of safeList(join(modules, entry))) names.push(`${entry}/${scoped}`);
    else names.push(entry);
  }
  return names;
}

function isCoworkPlugin(packageDir: string): boolean {
  try {
    const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { cowork?: { plugin?: unknown }; keywords?: unknown };
    return manifest.cowork?.plugin === true || (Array.isArray(manifest.keywords) && manifest.keywords.includes('cowork-plugin'));
  } catch {
    return false;
  }
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
