import { CoworkError } from '../errors';
import { loadPlugins } from '../plugins/loader';
import { PluginRegistry } from '../plugins/registry';
import type { SuiteDefinition } from '../plugins/suite';
import type { PluginDefinition } from '../plugins/types';
import { runtimeSuite } from './runtime-suite';

/** A suite and where it comes from: the host itself, or a plugin. */
export interface AvailableSuite {
  readonly plugin: string;
  readonly suite: SuiteDefinition;
}

/** The host's own suite and those of the plugins a host with these plugins would load. */
export async function availableSuites(options: { pluginModules?: readonly string[]; plugins?: readonly PluginDefinition[]; resolveFrom?: string }): Promise<AvailableSuite[]> {
  const registry = new PluginRegistry();
  for (const plugin of options.plugins ?? []) registry.register(plugin);
  await loadPlugins(registry, options.pluginModules ?? [], options.resolveFrom ?? process.cwd());
  return [{ plugin: 'host', suite: runtimeSuite }, ...registry.suites()];
}

/** The suite named `name`; `invalid_input` listing the known ones otherwise. */
export function findSuite(suites: readonly AvailableSuite[], name: string): AvailableSuite {
  const found = suites.find((s) => s.suite.name === name);
  if (!found) throw new CoworkError('invalid_input', `no suite ${JSON.stringify(name)}; known suites: ${suites.map((s) => s.suite.name).join(', ')}`, { suite: name, suites: suites.map((s) => s.suite.name) });
  return found;
}
