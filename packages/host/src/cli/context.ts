import { resolve } from 'node:path';
import { Host } from '../host';
import { discoverInstalledPlugins } from '../plugins/discover';
import type { CliContext, LeafArgs } from './command';
import type { CliIo, Output } from './output';

export const DEFAULT_WORKSPACE = '.cowork';

/**
 * The context of one command: the workspace and plugins from the common options (then the
 * environment, then the defaults: ./.cowork and every installed plugin), resolved against the
 * caller's cwd.
 */
export function createContext(io: CliIo, out: Output, args: LeafArgs): CliContext {
  const workspace = args.option('workspace') || io.env.COWORK_WORKSPACE || DEFAULT_WORKSPACE;
  const named = args.option('plugins') ?? io.env.COWORK_PLUGINS;
  const workspaceDir = resolve(io.cwd, workspace);
  // Without --plugins or COWORK_PLUGINS, every installed plugin loads (an empty value means none).
  const pluginModules =
    named === undefined
      ? discoverInstalledPlugins(io.cwd)
      : named
          .split(',')
          .map((name) => name.trim())
          .filter((name) => name !== '');
  return {
    io,
    out,
    workspaceDir,
    pluginModules,
    async withHost(fn, options = {}) {
      const host = await Host.open({ workspaceDir, pluginModules, resolveFrom: io.cwd, pollMonitors: options.pollMonitors === true });
      try {
        if (options.reportPluginProblems !== false) {
          for (const problem of host.pluginProblems) {
            out.warn(`plugin ${problem.plugin} was not loaded: ${problem.problems.join('; ')}`);
          }
        }
        return await fn(host);
      } finally {
        await host.close();
      }
    },
  };
}
