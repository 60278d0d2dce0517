import { CoworkError } from '../errors';
import { loadPlugins } from '../plugins/loader';
import { PluginRegistry } from '../plugins/registry';
import type { SuiteDefinition } from '../plugins/suite';
import type { PluginDefinition } from '../plugins/types';
import { runtimeSuite } from './runtime-suite';

/** A suite and where it comes from: the host itself, or a plugin (with the module that loads it). */
export interface AvailableSuite {
  readonly plugin: string;
  readonly suite: SuiteDefinition;
  /** The plugin module to load for the suite's trials (none for the host's own suite). */
  readonly pluginModules: readonly string[];
}

/**
 * The host's own suite and those of the plugins a host with these plugins would load. Each
 * plugin's suites run with that plugin alone (and the host's built-ins): a trial does not pay for
 * starting every installed plugin (a CAD kernel, a browser) that its tasks do not use.
 */
export async function availableSuites(options: { pluginModules?: readonly string[]; plugins?: readonly PluginDefinition[]; resolveFrom?: string }): Promise<AvailableSuite[]> {
  const suites: AvailableSuite[] = [{ plugin: 'host', suite: runtimeSuite, pluginModules: [] }];
  for (const plugin of options.plugins ?? []) for (const suite of plugin.suites ?? []) suites.push({ plugin: plugin.name, suite, pluginModules: [] });
  for (const specifier of options.pluginModules ?? []) {
    const registry = new PluginRegistry();
    await loadPlugins(registry, [specifier], options.resolveFrom ?? process.cwd());
    for (const { plugin, suite } of registry.suites()) suites.push({ plugin, suite, pluginModules: [specifier] });
  }
  return suites;
}

/** The suite named `name`; `invalid_input` listing the known ones otherwise. */
export function findSuite(suites: readonly AvailableSuite[], name: string): AvailableSuite {
  const found = suites.find((s) => s.suite.name === name);
  if (!found) throw new CoworkError('invalid_input', `no suite ${JSON.stringify(name)}; known suites: ${suites.map((s) => s.suite.name).join(', ')}`, { suite: name, suites: suites.map((s) => s.suite.name) });
  return found;
}
