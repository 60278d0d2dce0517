import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isPluginDefinition } from './define-plugin';
import { declaredKinds, readPackageJson } from './discover';
import type { PluginProblem, PluginRegistry } from './registry';
import { isCoworkError } from '../errors';
import type { PluginDefinition } from './types';

/**
 * Loads the plugins named in configuration (npm package names or paths) into a registry. A plugin
 * that cannot be imported or fails a manifest check is left out and reported; the others load.
 */
export async function loadPlugins(
  registry: PluginRegistry,
  specifiers: readonly string[],
  resolveFrom: string,
): Promise<PluginProblem[]> {
  const problems: PluginProblem[] = [];
  for (const specifier of specifiers) {
    try {
      registry.register(await importPlugin(specifier, resolveFrom));
    } catch (error) {
      problems.push({ plugin: specifier, problems: describeFailure(error) });
    }
  }
  return problems;
}

/** Registers already-imported plugins, collecting problems the same way. */
export function registerPlugins(registry: PluginRegistry, plugins: readonly PluginDefinition[]): PluginProblem[] {
  const problems: PluginProblem[] = [];
  for (const plugin of plugins) {
    try {
      registry.register(plugin);
    } catch (error) {
      const name = typeof plugin?.name === 'string' ? plugin.name : '(unnamed)';
      problems.push({ plugin: name, problems: describeFailure(error) });
    }
  }
  return problems;
}

async function importPlugin(specifier: string, resolveFrom: string): Promise<PluginDefinition> {
  const resolved = createRequire(`${resolveFrom}/`).resolve(specifier);
  const mod = (await import(pathToFileURL(resolved).href)) as Record<string, unknown>;
  const candidates = [mod.plugin, (mod.default as Record<string, unknown> | undefined)?.plugin, mod.default, (mod.default as Record<string, unknown> | undefined)?.default];
  const plugin = candidates.find(isPluginDefinition);
  if (!plugin) {
    throw new Error(`${specifier} does not export a plugin made with definePlugin (as "plugin" or the default export)`);
  }
  checkManifestKinds(resolved, plugin);
  return plugin;
}

/**
 * A package.json that lists its kinds (`"cowork": {"kinds": [...]}`) must list exactly the ones the
 * plugin brings: commands on a resource import only the plugins that list its kind, so a wrong
 * list would leave a kind without its plugin.
 */
function checkManifestKinds(resolvedEntry: string, plugin: PluginDefinition): void {
  const packageDir = packageDirOf(resolvedEntry);
  const listed = packageDir === undefined ? undefined : declaredKinds(readPackageJson(packageDir) ?? {});
  if (listed === undefined) return;
  const brought = plugin.kinds.map((k) => k.name);
  const same = listed.length === brought.length && brought.every((name) => listed.includes(name));
  if (!same) {
    throw new Error(
      `its package.json lists the kinds ${JSON.stringify([...listed].sort())} but the plugin brings ${JSON.stringify([...brought].sort())}; ` +
        'make "cowork": {"kinds": [...]} in package.json list exactly the kinds the plugin brings, or remove the list',
    );
  }
}

/** The nearest folder above a module's file that holds a package.json. */
function packageDirOf(file: string): string | undefined {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

function describeFailure(error: unknown): string[] {
  if (isCoworkError(error) && Array.isArray(error.details.problems)) return error.details.problems.map(String);
  return [error instanceof Error ? error.message : String(error)];
}
