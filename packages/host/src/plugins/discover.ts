import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** What an installed plugin's package.json says, read without importing its code. */
export interface PluginManifest {
  /** The package name, for the loader to import. */
  readonly name: string;
  /** `"cowork": {"kinds": [...]}`: the resource kinds the plugin brings, when it says. */
  readonly kinds?: readonly string[];
}

/**
 * The plugins installed where the host runs: packages in any `node_modules` from `fromDir` up to
 * the root whose package.json says `"cowork": {"plugin": true}` (or has the keyword
 * `cowork-plugin`). Manifest first: only package.json files are read, nothing is imported here.
 * Returns package names, sorted, for the loader to import.
 */
export function discoverInstalledPlugins(fromDir: string): string[] {
  return discoverPluginManifests(fromDir).map((m) => m.name);
}

/** The installed plugins' manifests (see `discoverInstalledPlugins`), sorted by name; the nearest wins. */
export function discoverPluginManifests(fromDir: string): PluginManifest[] {
  const found = new Map<string, PluginManifest>();
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const modules = join(dir, 'node_modules');
    if (existsSync(modules)) {
      for (const name of packagesIn(modules)) {
        if (found.has(name)) continue;
        const manifest = coworkManifest(join(modules, name), name);
        if (manifest) found.set(name, manifest);
      }
    }
    if (dirname(dir) === dir) break;
  }
  return [...found.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
}

/**
 * The plugins a command on a resource of `kind` needs: those whose manifest lists the kind, and
 * those whose manifest lists none (they might bring it). A plugin that lists its kinds and not
 * this one is not imported: a command on a deck does not load the CAD kernel.
 */
export function pluginsForKind(manifests: readonly PluginManifest[], kind: string): string[] {
  return manifests.filter((m) => m.kinds === undefined || m.kinds.includes(kind)).map((m) => m.name);
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

function coworkManifest(packageDir: string, name: string): PluginManifest | undefined {
  const manifest = readPackageJson(packageDir);
  if (!manifest) return undefined;
  const isPlugin = manifest.cowork?.plugin === true || (Array.isArray(manifest.keywords) && manifest.keywords.includes('cowork-plugin'));
  if (!isPlugin) return undefined;
  const kinds = declaredKinds(manifest);
  return kinds === undefined ? { name } : { name, kinds };
}

interface PackageJson {
  readonly name?: unknown;
  readonly cowork?: { readonly plugin?: unknown; readonly kinds?: unknown };
  readonly keywords?: unknown;
}

/** `cowork.kinds` when it is a list of names; anything else counts as not saying (all are loaded). */
export function declaredKinds(manifest: PackageJson): string[] | undefined {
  const kinds = manifest.cowork?.kinds;
  return Array.isArray(kinds) && kinds.every((k) => typeof k === 'string') ? kinds : undefined;
}

export function readPackageJson(packageDir: string): PackageJson | undefined {
  try {
    return JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as PackageJson;
  } catch {
    return undefined;
  }
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
