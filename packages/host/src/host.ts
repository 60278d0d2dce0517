import { Approvals } from './approvals/approvals';
import { Publications } from './agents/publications';
import { WorkHistory } from './agents/work-history';
import { resolve } from 'node:path';
import { Coordinator } from './coordinator/coordinator';
import { JobService } from './jobs/job-service';
import { McpServers } from './mcp-client/servers';
import { jobsPlugin } from './plugins/builtin/jobs-plugin';
import { runsPlugin } from './plugins/builtin/runs-plugin';
import { Runs } from './agents/runs';
import { MonitorService } from './monitors/monitor-service';
import { monitorsPlugin } from './plugins/builtin/monitors-plugin';
import { textPlugin } from './plugins/builtin/text-plugin';
import { closePlugins, startPlugins } from './plugins/lifecycle';
import { loadPlugins, registerPlugins } from './plugins/loader';
import { PluginRegistry, type PluginProblem } from './plugins/registry';
import type { PluginDefinition } from './plugins/types';
import { DEFAULT_RESOURCE_LIMITS, type ResourceLimits } from './resources/resource-deps';
import { ExportService } from './resources/export-service';
import { ExternalSessions } from './resources/external-sessions';
import { ImportService } from './resources/import-service';
import { ResourceService } from './resources/resource-service';
import { ViewService } from './resources/view-service';
import { RevisionEvents } from './resources/revision-events';
import { openWorkspaceStore } from './store/open-store';
import type { SynchronousMode } from './store/sqlite/sqlite-store';
import type { GroupCommitSettings } from './store/write-queue';
import type { Store } from './store/store';
import { Leases, type LeaseSettings } from './store/leases/leases';
import { InboxFeed } from './agents/inbox-feed';
import { HostPresence } from './store/leases/presence';

export interface HostOptions {
  /** The workspace directory: one database and the files of its tasks. Created if missing. */
  readonly workspaceDir: string;
  /** Poll the workspace's stored monitors (default true); short-lived commands pass false. */
  readonly pollMonitors?: boolean;
  /** Plugins already imported (tests, embedders). */
  readonly plugins?: readonly PluginDefinition[];
  /** Plugins to import by npm name or path, resolved from `resolveFrom` (default: the process cwd). */
  readonly pluginModules?: readonly string[];
  readonly resolveFrom?: string;
  /** `FULL` unless you accept losing the last commits on power loss. */
  readonly synchronous?: SynchronousMode;
  /** Write transactions sharing one COMMIT (store/sqlite/sqlite-store.ts); `{maxBatch: 1}` turns it off. */
  readonly groupCommit?: GroupCommitSettings;
  /**
   * `postgres://...`: keep the workspace's records in this PostgreSQL database instead of
   * `<workspace>/cowork.db` (store/postgres). The CLI takes it from `--database-url` or
   * COWORK_DATABASE_URL; Host.open reads no environment.
   */
  readonly databaseUrl?: string;
  readonly limits?: Partial<ResourceLimits>;
  /** Injectable clock for tests. */
  readonly clock?: () => Date;
  /**
   * How often open sessions of `external` resources (a Blender scene) are observed for changes made
   * outside the host, in ms (default 2000; 0 turns the poll off: changes are then seen at the next op).
   */
  readonly externalPollMs?: number;
  /** Called when something fails outside any caller's request (a revision listener throwing). */
  readonly onBackgroundError?: (error: unknown) => void;
  /** Files of a task's `work/` larger than this are kept out of its git history (default 5 MiB). */
  readonly workMaxFileBytes?: number;
  /** This host's name in lease holders and the leases' duration (see store/leases/leases.ts). */
  readonly leases?: LeaseSettings;
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
  /** Each kind's export formats (pptx, pdf, step, ...). */
  readonly exports: ExportService;
  /** Each kind's import formats: files people bring in become resources. */
  readonly imports: ImportService;
  /** Each kind's view of a content, for the web page. */
  readonly views: ViewService;
  readonly coordinator: Coordinator;
  /** Background processes that survive the host (see src/jobs). */
  readonly jobs: JobService;
  /** Deterministic checks that post to an agent's Inbox when what they observe changes (see src/monitors). */
  readonly monitors: MonitorService;
  /** The MCP servers mounted from `<workspace>/mcp.json`, each loaded as a plugin (see src/mcp-client). */
  readonly mcp: McpServers;
  /** High-impact tool calls waiting for, or decided by, a person (see src/approvals). */
  readonly approvals: Approvals;
  /** Tasks' published results: immutable files with their manifests (see agents/publications.ts). */
  readonly publications: Publications;
  /** Tasks' runs: experiments with their jobs, params and metrics (see agents/runs.ts). */
  readonly runs: Runs;
  /** Tasks' `work/` folders under git: snapshots per turn, diff, restore (see agents/work-history.ts). */
  readonly workHistory: WorkHistory;
  /** What this host runs alone among the hosts on the workspace: tasks, the monitors' polling. */
  readonly leases: Leases;
  /** Plugins named in configuration that were left out, and why. */
  readonly pluginProblems: readonly PluginProblem[];
  /** Every host's Inbox posts, which wake agents parked here (PostgreSQL; none on SQLite). */
  readonly inboxFeed: InboxFeed | undefined;
  /** Stops folding other hosts' coordinator events in as they are announced. */
  private readonly unfollowLog: () => void;
  private readonly external: ExternalSessions;
  /** That this host runs, for hosts elsewhere judging the jobs started on this machine. */
  private readonly presence: HostPresence;
  private readonly onBackgroundError: (error: unknown) => void;
  private externalPoll: NodeJS.Timeout | undefined;
  private polling = false;

  private constructor(parts: {
    workspaceDir: string;
    store: Store;
    leases: Leases;
    presence: HostPresence;
    registry: PluginRegistry;
    resources: ResourceService;
    coordinator: Coordinator;
    inboxFeed: InboxFeed | undefined;
    jobs: JobService;
    monitors: MonitorService;
    runs: Runs;
    mcp: McpServers;
    external: ExternalSessions;
    externalPollMs: number;
    onBackgroundError?: (error: unknown) => void;
    pluginProblems: PluginProblem[];
    maxContentBytes: number;
    clock?: () => Date;
    workMaxFileBytes?: number;
  }) {
    this.workspaceDir = parts.workspaceDir;
    this.store = parts.store;
    this.leases = parts.leases;
    this.presence = parts.presence;
    this.registry = parts.registry;
    this.resources = parts.resources;
    this.exports = new ExportService(parts.resources, parts.registry);
    this.imports = new ImportService(parts.resources, parts.registry, parts.maxContentBytes);
    this.external = parts.external;
    if (parts.externalPollMs > 0) {
      this.externalPoll = setInterval(() => void this.pollExternal(), parts.externalPollMs);
      this.externalPoll.unref();
    }
    this.views = new ViewService(parts.resources, parts.registry);
    this.coordinator = parts.coordinator;
    this.inboxFeed = parts.inboxFeed;
    // Another host's records reach this one's listeners (its live clients) at once, in order.
    this.unfollowLog = parts.coordinator.follow();
    this.jobs = parts.jobs;
    this.monitors = parts.monitors;
    this.runs = parts.runs;
    this.mcp = parts.mcp;
    this.approvals = new Approvals(parts.store, parts.clock);
    // A task another process created is found once the log is read again.
    const taskExists = async (taskId: string): Promise<boolean> => {
      if (parts.coordinator.current.tasks[taskId] !== undefined) return true;
      await parts.coordinator.refresh();
      return parts.coordinator.current.tasks[taskId] !== undefined;
    };
    this.publications = new Publications({
      store: parts.store,
      workspaceDir: parts.workspaceDir,
      exports: this.exports,
      taskExists,
      now: parts.clock,
    });
    this.workHistory = new WorkHistory({
      workspaceDir: parts.workspaceDir,
      maxFileBytes: parts.workMaxFileBytes,
      taskExists,
    });
    this.pluginProblems = parts.pluginProblems;
    this.onBackgroundError = parts.onBackgroundError ?? defaultBackgroundError;
  }

  static async open(options: HostOptions): Promise<Host> {
    const workspaceDir = resolve(options.workspaceDir);
    const clock = options.clock ?? (() => new Date());
    const now = (): string => clock().toISOString();
    const store = await openWorkspaceStore(workspaceDir, { synchronous: options.synchronous, groupCommit: options.groupCommit, databaseUrl: options.databaseUrl });
    const leases = new Leases(store, options.leases, options.onBackgroundError);
    const presence = new HostPresence(leases, options.onBackgroundError);
    let jobs: JobService | undefined;
    let monitors: MonitorService | undefined;
    let runs: Runs | undefined;
    let inboxFeed: InboxFeed | undefined;
    try {
      // A long-lived host vouches for this machine's jobs from its start; a short one once it starts a job.
      if (options.pollMonitors !== false) await presence.start();
      jobs = await JobService.open({ store, workspaceDir, now, onBackgroundError: options.onBackgroundError, presence });
      monitors = await MonitorService.open({
        store,
        workspaceDir,
        jobs,
        now: clock,
        onBackgroundError: options.onBackgroundError,
        pollStored: options.pollMonitors,
        leases,
      });
      runs = new Runs({ store, workspaceDir, jobs, now: clock, onBackgroundError: options.onBackgroundError ?? defaultBackgroundError });
      const registry = new PluginRegistry();
      const builtin = [textPlugin, jobsPlugin(jobs), runsPlugin(runs), monitorsPlugin(monitors, workspaceDir)];
      const mcp = new McpServers({ workspaceDir, store, now: clock, onBackgroundError: options.onBackgroundError ?? defaultBackgroundError });
      const pluginProblems = [
        ...registerPlugins(registry, [...builtin, ...(options.plugins ?? [])]),
        ...(await loadPlugins(registry, options.pluginModules ?? [], options.resolveFrom ?? process.cwd())),
        ...mcp.problems,
        ...registerPlugins(registry, mcp.plugins()),
      ];
      const events = new RevisionEvents(options.onBackgroundError);
      const limits = { ...DEFAULT_RESOURCE_LIMITS, ...options.limits };
      const external = new ExternalSessions({ workspaceDir, jobs, leases });
      const resources = new ResourceService({ store, registry, events, limits, now, external });
      const coordinator = await Coordinator.open(store, now);
      inboxFeed = await InboxFeed.start(store, options.onBackgroundError);
      mcp.attach(registry, (id) => resources.syncExternal(id));
      // Last, so that a start that fails leaves nothing else half-open.
      pluginProblems.push(...(await startPlugins(registry.plugins(), { workspaceDir, longLived: options.pollMonitors !== false })));
      // A long-lived host follows mcp.json from here on (servers added or removed while it runs).
      mcp.start({ longLived: options.pollMonitors !== false });
      return new Host({
        workspaceDir,
        store,
        leases,
        presence,
        registry,
        resources,
        coordinator,
        inboxFeed,
        jobs,
        monitors,
        runs,
        mcp,
        external,
        externalPollMs: options.externalPollMs ?? 2000,
        onBackgroundError: options.onBackgroundError,
        pluginProblems,
        maxContentBytes: limits.maxContentBytes,
        clock,
        workMaxFileBytes: options.workMaxFileBytes,
      });
    } catch (error) {
      inboxFeed?.close();
      await runs?.close();
      await monitors?.close();
      await jobs?.close();
      await presence.stop();
      await leases.close();
      await store.close();
      throw error;
    }
  }

  async close(): Promise<void> {
    clearInterval(this.externalPoll);
    await this.external.close();
    await this.mcp.close();
    await closePlugins(this.registry.plugins(), this.onBackgroundError);
    await this.monitors.close();
    await this.runs.close();
    await this.jobs.close();
    this.unfollowLog();
    this.inboxFeed?.close();
    await this.presence.stop();
    await this.leases.close();
    await this.store.close();
  }

  /** One pass of the external poll; a pass still running when the timer fires again is not doubled. */
  private async pollExternal(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      for (const id of this.external.openResourceIds()) {
        await this.resources.syncExternal(id).catch((error: unknown) => this.onBackgroundError(error));
      }
    } finally {
      this.polling = false;
    }
  }
}

function defaultBackgroundError(error: unknown): void {
  process.stderr.write(`cowork: ${String((error as Error)?.stack ?? error)}\n`);
}
