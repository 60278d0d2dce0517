import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { textPlugin } from '../plugins/builtin/text-plugin';
import { discoverPluginManifests, pluginsForKind, type PluginManifest } from '../plugins/discover';
import type { CliContext, LeafArgs, StoredResources } from './command';
import { CoworkError } from '../errors';
import type { LeaseSettings } from '../store/leases/leases';
import type { CliIo, Output } from './output';

export const DEFAULT_WORKSPACE = '.cowork';

/**
 * The context of one command: the workspace and plugins from the common options (then the
 * environment, then the defaults: ./.cowork and every installed plugin), resolved against the
 * caller's cwd.
 *
 * Nothing heavy loads here: the host (and with it the MCP SDK, the coordinator, the plugins) is
 * required when a command opens it, so `--help`, usage errors and the commands that only read
 * stored records start in a fraction of the time (see bench/src/runtime/cli-start.ts).
 */
export function createContext(io: CliIo, out: Output, args: LeafArgs): CliContext {
  const workspace = args.option('workspace') || io.env.COWORK_WORKSPACE || DEFAULT_WORKSPACE;
  const named = args.option('plugins') ?? io.env.COWORK_PLUGINS;
  const workspaceDir = resolve(io.cwd, workspace);
  // Read here, at the edge, like the workspace: the store is chosen by openWorkspaceStore from it.
  const databaseUrl = args.option('database-url') || io.env.COWORK_DATABASE_URL || undefined;
  // Without --plugins or COWORK_PLUGINS, every installed plugin loads (an empty value means none)
  // when a command opens the host; see `withHost` and `withStoredResources` for the exceptions.
  const installed = named === undefined;
  const namedModules = installed
    ? []
    : named
        .split(',')
        .map((name) => name.trim())
        .filter((name) => name !== '');
  // Finding the installed plugins reads every package.json in node_modules (tens of ms): only
  // when a command asks for them.
  let discovered: PluginManifest[] | undefined;
  const manifests = (): readonly PluginManifest[] => (discovered ??= discoverPluginManifests(io.cwd));
  const pluginModules = (): readonly string[] => (installed ? manifests().map((m) => m.name) : namedModules);
  /**
   * A command on one kind imports only the installed plugins that may bring it (manifests first):
   * none for a kind built into the host (a plugin bringing it again would be refused as a
   * duplicate), and for a plugin's kind the plugins whose package.json lists it or lists no kinds.
   */
  const modulesFor = (kind: string | undefined): readonly string[] => {
    if (!installed || kind === undefined) return pluginModules();
    return BUILT_IN_KINDS.has(kind) ? [] : pluginsForKind(manifests(), kind);
  };

  const withHost: CliContext['withHost'] = async (fn, options = {}) => {
    const modules = modulesFor(options.kind);
    const leases = leaseSettings(io.env);
    const { Host } = loadHost();
    const host = await Host.open({ workspaceDir, databaseUrl, pluginModules: modules, resolveFrom: io.cwd, pollMonitors: options.pollMonitors === true, leases });
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
  };

  return {
    io,
    out,
    workspaceDir,
    get pluginModules() {
      return pluginModules();
    },
    withHost,
    async withStoredResources(fn) {
      const stored = await openStoredResources(workspaceDir, databaseUrl);
      // No database yet: the host creates the workspace as it always has.
      if (!stored) return withHost((host) => fn(host.resources));
      try {
        return await fn(stored.resources);
      } finally {
        await stored.close();
      }
    },
    async withStore(fn) {
      const store = await loadOpenStore().openWorkspaceStore(workspaceDir, { databaseUrl });
      try {
        return await fn(store);
      } finally {
        await store.close();
      }
    },
    async kindOf(resourceId) {
      try {
        const stored = await openStoredResources(workspaceDir, databaseUrl);
        if (!stored) return undefined;
        try {
          return (await stored.resources.get(resourceId)).kind;
        } finally {
          await stored.close();
        }
      } catch {
        // Whatever went wrong, the host meets it again and reports it as it always has.
        return undefined;
      }
    },
  };
}

/**
 * COWORK_HOST_ID (this machine's name in lease holders, where machines share a hostname) and
 * COWORK_LEASE_MS (how long a task's or the monitors' lease runs without renewal).
 */
function leaseSettings(env: NodeJS.ProcessEnv): LeaseSettings {
  const durationText = env.COWORK_LEASE_MS;
  const durationMs = durationText === undefined || durationText === '' ? undefined : Number(durationText);
  if (durationMs !== undefined && !(Number.isInteger(durationMs) && durationMs >= 100)) {
    throw new CoworkError('invalid_input', `COWORK_LEASE_MS must be a whole number of milliseconds, at least 100, not ${JSON.stringify(durationText)}`, { field: 'COWORK_LEASE_MS' });
  }
  return { ...(env.COWORK_HOST_ID ? { hostId: env.COWORK_HOST_ID } : {}), ...(durationMs !== undefined && { durationMs }) };
}

/** The kinds every host has without plugins. */
const BUILT_IN_KINDS: ReadonlySet<string> = new Set(textPlugin.kinds.map((kind) => kind.name));

/*
 * Modules required when a command uses them rather than when the CLI starts: the host alone
 * brings several hundred modules (the MCP SDK, TypeBox, Ajv, the coordinator, the agents).
 */
/* eslint-disable @typescript-eslint/no-require-imports */
const loadHost = (): typeof import('../host') => require('../host');
const loadOpenStore = (): typeof import('../store/open-store') => require('../store/open-store');
const loadResourceService = (): typeof import('../resources/resource-service') => require('../resources/resource-service');
const loadRegistry = (): typeof import('../plugins/registry') => require('../plugins/registry');
const loadRevisionEvents = (): typeof import('../resources/revision-events') => require('../resources/revision-events');
const loadResourceDeps = (): typeof import('../resources/resource-deps') => require('../resources/resource-deps');
/* eslint-enable @typescript-eslint/no-require-imports */

/**
 * The workspace's resource service on its store alone: no plugin is registered, so only the reads
 * that need none may be made (`StoredResources`). Undefined when the workspace has no SQLite database
 * yet (a PostgreSQL database is always opened: its schema is made on first use).
 */
async function openStoredResources(workspaceDir: string, databaseUrl: string | undefined): Promise<{ resources: StoredResources; close(): Promise<void> } | undefined> {
  const { DATABASE_FILE, openWorkspaceStore } = loadOpenStore();
  if (databaseUrl === undefined && !existsSync(join(workspaceDir, DATABASE_FILE))) return undefined;
  const store = await openWorkspaceStore(workspaceDir, { databaseUrl });
  const { ResourceService } = loadResourceService();
  const { PluginRegistry } = loadRegistry();
  const { RevisionEvents } = loadRevisionEvents();
  const { DEFAULT_RESOURCE_LIMITS } = loadResourceDeps();
  const resources = new ResourceService({ store, registry: new PluginRegistry(), events: new RevisionEvents(), limits: DEFAULT_RESOURCE_LIMITS, now: () => new Date().toISOString() });
  return { resources, close: () => store.close() };
}
