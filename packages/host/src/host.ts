import { resolve } from 'node:path';
import { Coordinator } from './coordinator/coordinator';
import { JobService } from './jobs/job-service';
import { jobTools } from './jobs/job-tools';
import { definePlugin } from './plugins/define-plugin';
import { textPlugin } from './plugins/builtin/text-plugin';
import { loadPlugins, registerPlugins } from './plugins/loader';
import { PluginRegistry, type PluginProblem } from './plugins/registry';
import type { PluginDefinition } from './plugins/types';
import { DEFAULT_RESOURCE_LIMITS, type ResourceLimits } from './resources/resource-deps';
import { ResourceService } from './resources/resource-service';
import { RevisionEvents } from './resources/revision-events';
import { openWorkspaceStore } from './store/open-store';
import type { SynchronousMode } from './store/sqlite/sqlite-store';
import type { Store } from './store/store';

export interface HostOptions {
  /** The workspace directory: one database and the files of its tasks. Created if missing. */
  readonly workspaceDir: string;
  /** Plugins already imported (tests, embedders). */
  readonly plugins?: readonly PluginDefinition[];
  /** Plugins to import by npm name or path, resolved from `resolveFrom` (default: the process cwd). */
  readonly pluginModules?: readonly string[];
  readonly resolveFrom?: string;
  /** `FULL` unless you accept losing the last commits on power loss. */
  readonly synchronous?: SynchronousMode;
  readonly limits?: Partial<ResourceLimits>;
  /** Injectable clock for tests. */
  readonly clock?: () => Date;
  /** Called when something fails outside any caller's request (a revision listener throwing). */
  readonly onBackgroundError?: (error: unknown) => void;
}

/**
 * One running host over one workspace. Everything hangs off this object (no module singletons);
 * `close()` disposes in reverse order of creation.
 */
export class Host {
  readonly workspaceDir: string;
  readonly store: Store;
  readonly registry: PluginRegistry;
  readonly resources: ResourceService;
  readonly coordinator: Coordinator;
  /** Background processes that survive the host (see src/jobs). */
  readonly jobs: JobService;
  /** Plugins named in configuration that were left out, and why. */
  readonly pluginProblems: readonly PluginProblem[];

  private constructor(parts: {
    workspaceDir: string;
    store: Store;
    registry: PluginRegistry;
    resources: ResourceService;
    coordinator: Coordinator;
    jobs: JobService;
    pluginProblems: PluginProblem[];
  }) {
    this.workspaceDir = parts.workspaceDir;
    this.store = parts.store;
    this.registry = parts.registry;
    this.resources = parts.resources;
    this.coordinator = parts.coordinator;
    this.jobs = parts.jobs;
    this.pluginProblems = parts.pluginProblems;
  }

  static async open(options: HostOptions): Promise<Host> {
    const workspaceDir = resolve(options.workspaceDir);
    const clock = options.clock ?? (() => new Date());
    const now = (): string => clock().toISOString();
    const store = openWorkspaceStore(workspaceDir, { synchronous: options.synchronous });
    let jobs: JobService | undefined;
    try {
      jobs = await JobService.open({ store, workspaceDir, now, onBackgroundError: options.onBackgroundError });
      const registry = new PluginRegistry();
      // The host's own tools go through the same registry checks as any plugin's.
      const jobsPlugin = definePlugin({ name: 'jobs', version: '0.1.0', description: 'Background processes as agent tools.', tools: jobTools(jobs) });
      const pluginProblems = [
        ...registerPlugins(registry, [textPlugin, jobsPlugin, ...(options.plugins ?? [])]),
        ...(await loadPlugins(registry, options.pluginModules ?? [], options.resolveFrom ?? process.cwd())),
      ];
      const events = new RevisionEvents(options.onBackgroundError);
      const limits = { ...DEFAULT_RESOURCE_LIMITS, ...options.limits };
      const resources = new ResourceService({ store, registry, events, limits, now });
      const coordinator = await Coordinator.open(store, now);
      return new Host({ workspaceDir, store, registry, resources, coordinator, jobs, pluginProblems });
    } catch (error) {
      await jobs?.close();
      await store.close();
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.jobs.close();
    await this.store.close();
  }
}
