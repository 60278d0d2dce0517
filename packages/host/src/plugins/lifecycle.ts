import type { PluginProblem } from './registry';
import type { PluginDefinition, PluginStartContext } from './types';

/**
 * Plugins' `start` and `close` hooks. A plugin whose start throws stays loaded (its kinds may still
 * serve reads) and is named among the host's plugin problems; a close that throws does not stop
 * the others from closing.
 */
export async function startPlugins(plugins: readonly PluginDefinition[], context: PluginStartContext): Promise<PluginProblem[]> {
  const problems: PluginProblem[] = [];
  for (const plugin of plugins) {
    if (!plugin.start) continue;
    try {
      await plugin.start(context);
    } catch (error) {
      problems.push({ plugin: plugin.name, problems: [`start failed: ${(error as Error)?.message ?? String(error)}`] });
    }
  }
  return problems;
}

/** Closes plugins in reverse order of loading. */
export async function closePlugins(plugins: readonly PluginDefinition[], onError: (error: unknown) => void): Promise<void> {
  for (const plugin of [...plugins].reverse()) {
    try {
      await plugin.close?.();
    } catch (error) {
      onError(new Error(`plugin ${plugin.name} failed to close: ${(error as Error)?.message ?? String(error)}`));
    }
  }
}
