import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { isPluginDefinition } from './define-plugin';
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
  return plugin;
}

function describeFailure(error: unknown): string[] {
  if (isCoworkError(error) && Array.isArray(error.details.problems)) return error.details.problems.map(String);
  return [error instanceof Error ? error.message : String(error)];
}
