import { watch, type FSWatcher } from 'node:fs';
import { ErrorCode as McpErrorCode, McpError, type CreateMessageRequest, type CreateMessageResult } from '@modelcontextprotocol/sdk/types.js';
import { CoworkError } from '../errors';
import { Inbox } from '../agents/inbox';
import type { PluginProblem, PluginRegistry } from '../plugins/registry';
import type { PluginDefinition } from '../plugins/types';
import type { ModelProvider } from '../models/types';
import type { Store } from '../store/store';
import { Emitter } from '../util/emitter';
import { Approvals } from './approvals';
import { addServer, MCP_CONFIG_FILE, readConfig, redacted, removeServer, requireServer, type McpConfig, type McpServerConfig } from './config';
import type { ConnectionState } from './connection';
import { Elicitations, type ElicitationOutcome, type PendingElicitation } from './elicitations';
import { MountedServer, type ActiveCall, type McpProgressEvent, type McpSamplingEvent, type McpToolProgressEvent } from './mounted-server';
import { pluginName } from './names';
import { samplingRequest, samplingResult } from './sampling';

export type { McpProgressEvent, McpSamplingEvent, McpToolProgressEvent, PendingElicitation };

/** How long mcp.json must be quiet before a running host applies it (an editor writes in steps). */
const WATCH_DEBOUNCE_MS = 150;

export interface McpServersOptions {
  readonly workspaceDir: string;
  readonly store: Store;
  readonly now: () => Date;
  readonly onBackgroundError: (error: unknown) => void;
}

/** A mounted server as the CLI and HTTP API show it. */
export interface McpServerStatus {
  readonly name: string;
  readonly transport: 'stdio' | 'http';
  readonly config: Record<string, unknown>;
  /** `unloaded`: in mcp.json but not loaded by this host (a short-lived host, or a change not yet picked up). */
  readonly state: ConnectionState | 'unloaded';
  readonly error: string | null;
  readonly tools: string[];
  readonly held: Record<string, string>;
  readonly approvedAt: string | null;
}

/**
 * The workspace's mounted MCP servers (`<workspace>/mcp.json`): one plugin and one persistent
 * connection each. A running host follows the file: `add`/`remove` here apply at once, and a
 * long-lived host (`start`) watches the file for other processes' changes (`cowork mcp add`); a
 * server added is registered (and connected in a long-lived host), one removed is closed and its
 * plugin unregistered. A file that does not parse leaves the mounted set as it is. Approvals and
 * elicitation answers apply at once.
 */
export class McpServers {
  readonly problems: PluginProblem[] = [];
  private readonly mounted = new Map<string, MountedServer>();
  private readonly approvals: Approvals;
  private readonly elicitations: Elicitations;
  private readonly inbox: Inbox;
  /** Inbox posts of questions, so that settling one consumes its message only after it is written. */
  private readonly posting = new Map<string, Promise<void>>();
  private readonly progress = new Emitter<McpProgressEvent>();
  private registry: PluginRegistry | undefined;
  private syncResource: ((resourceId: string) => Promise<void>) | undefined;
  private model: ModelProvider | undefined;
  private longLived = false;
  private closed = false;
  private watcher: FSWatcher | undefined;
  private debounce: NodeJS.Timeout | undefined;
  private lastConfigProblem = '';
  /** Starts and closes under way (mounting and unmounting do not wait for them); `close` does. */
  private readonly pending = new Set<Promise<unknown>>();

  constructor(private readonly options: McpServersOptions) {
    this.approvals = new Approvals(options.workspaceDir);
    this.inbox = new Inbox(options.store, options.now);
    this.elicitations = new Elicitations(options.now, (info, outcome) => this.elicitationSettled(info, outcome));
    let config: McpConfig = { mcpServers: {} };
    try {
      config = readConfig(options.workspaceDir);
    } catch (error) {
      // A bad mcp.json leaves the servers out, not the host: it is reported like a bad plugin.
      this.problems.push({ plugin: MCP_CONFIG_FILE, problems: [(error as Error).message] });
      this.lastConfigProblem = (error as Error).message;
    }
    for (const [name, server] of Object.entries(config.mcpServers)) this.mounted.set(name, this.mount(name, server));
  }

  /** The plugins to register, one per server. */
  plugins(): PluginDefinition[] {
    return [...this.mounted.values()].map((m) => m.plugin);
  }

  /** Wires the host's registry (tools follow `list_changed`) and how an updated resource is recorded. */
  attach(registry: PluginRegistry, syncResource: (resourceId: string) => Promise<void>): void {
    this.registry = registry;
    this.syncResource = syncResource;
  }

  /**
   * Called once the host's plugins started: a long-lived host watches mcp.json from now on (the CLI
   * of another process writes it) and connects the servers added later.
   */
  start(context: { readonly longLived: boolean }): void {
    this.longLived = context.longLived;
    if (!context.longLived || this.closed) return;
    try {
      this.watcher = watch(this.options.workspaceDir, { persistent: false }, (_event, file) => {
        if (file !== null && file !== MCP_CONFIG_FILE) return;
        clearTimeout(this.debounce);
        this.debounce = setTimeout(() => this.reconcile(), WATCH_DEBOUNCE_MS);
        this.debounce.unref();
      });
      this.watcher.on('error', (error) => this.options.onBackgroundError(error));
    } catch (error) {
      this.options.onBackgroundError(error);
    }
    // A change between opening and watching is not missed.
    this.reconcile();
  }

  /**
   * Lends the servers whose config enables sampling a model for `sampling/createMessage`; the owner
   * of a provider (`cowork serve`'s task runner, `cowork run`) calls it. `undefined` takes it back.
   */
  lendModel(provider: ModelProvider | undefined): void {
    this.model = provider;
  }

  /**
   * Makes the mounted set match mcp.json now: servers added are mounted, removed ones unmounted, a
   * changed entry is remounted. A file that does not parse changes nothing and is reported.
   */
  reconcile(): void {
    const registry = this.registry;
    if (this.closed || !registry) return;
    let config: McpConfig;
    try {
      config = readConfig(this.options.workspaceDir);
    } catch (error) {
      this.reportConfigProblem((error as Error).message, error);
      return;
    }
    this.reportConfigProblem('', undefined);
    for (const [name, mounted] of [...this.mounted]) {
      const next = Object.prototype.hasOwnProperty.call(config.mcpServers, name) ? config.mcpServers[name] : undefined;
      if (!next || JSON.stringify(next) !== JSON.stringify(mounted.config)) this.unmount(name, mounted);
    }
    for (const [name, server] of Object.entries(config.mcpServers)) {
      if (this.mounted.has(name)) continue;
      const mounted = this.mount(name, server);
      try {
        registry.register(mounted.plugin);
      } catch (error) {
        this.options.onBackgroundError(error);
        continue;
      }
      this.mounted.set(name, mounted);
      if (this.longLived) {
        this.track(Promise.resolve(mounted.plugin.start?.({ workspaceDir: this.options.workspaceDir, longLived: true })));
      }
    }
  }

  server(name: string): MountedServer | undefined {
    return this.mounted.get(name);
  }

  list(): McpServerStatus[] {
    const config = this.safeConfig();
    return Object.entries(config.mcpServers).map(([name, server]) => {
      const mounted = this.mounted.get(name);
      const loaded = mounted && this.registry?.plugins().some((p) => p.name === pluginName(name));
      return {
        name,
        transport: 'url' in server ? 'http' : 'stdio',
        config: redacted(server),
        state: loaded ? mounted.connection.state : 'unloaded',
        error: loaded && mounted.connection.error ? mounted.connection.error : null,
        tools: loaded ? mounted.plugin.tools.map((t) => t.name) : [],
        held: loaded ? mounted.heldTools() : {},
        approvedAt: this.approvals.get(name)?.approvedAt ?? null,
      };
    });
  }

  add(name: string, server: unknown): McpServerStatus {
    addServer(this.options.workspaceDir, name, server);
    // A server added under a name that was removed earlier starts from a fresh approval.
    this.approvals.forget(name);
    this.reconcile();
    return this.list().find((s) => s.name === name)!;
  }

  /** Removes the server from mcp.json; its tools are gone at once, its connection closes after. */
  remove(name: string): void {
    removeServer(this.options.workspaceDir, name);
    this.approvals.forget(name);
    this.reconcile();
  }

  /** A person approves the server's current tools; held tools run again. */
  approve(name: string): McpServerStatus {
    requireServer(this.safeConfig(true), name);
    const mounted = this.mounted.get(name);
    if (!mounted || mounted.connection.state !== 'ready') {
      throw new CoworkError('external_unavailable', `MCP server ${name} is not connected, so there is nothing to review; approve it once it runs`, { server: name, reason: mounted?.connection.error || 'not loaded' });
    }
    mounted.approve();
    return this.list().find((s) => s.name === name)!;
  }

  onProgress(listener: (event: McpProgressEvent) => void): () => void {
    return this.progress.subscribe(listener);
  }

  /** Questions waiting for a person, all or one task's. */
  pendingElicitations(taskId?: string): PendingElicitation[] {
    return this.elicitations.list(taskId);
  }

  /** A question posted to a task's Inbox (for the task's live clients). */
  onInboxPosted(listener: Parameters<Inbox['subscribe']>[0]): () => void {
    return this.inbox.subscribe(listener);
  }

  answerElicitation(id: string, answer: unknown): PendingElicitation {
    return this.elicitations.answer(id, answer);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.watcher?.close();
    clearTimeout(this.debounce);
    this.elicitations.cancelAll();
    await Promise.allSettled([...this.pending]);
  }

  private mount(name: string, server: McpServerConfig): MountedServer {
    return new MountedServer(name, server, {
      registry: () => this.registry,
      approvals: this.approvals,
      now: this.options.now,
      onProgress: (event) => this.progress.emit(event),
      onElicit: (server, call, params, signal) => this.elicit(server, call?.taskId ?? null, params, [signal, call?.ended, call?.signal]),
      onSample: (server, call, params, signal) => this.sample(server, call, params, signal),
      onResourceUpdated: (_server, ids) => this.resourcesUpdated(ids),
      onBackgroundError: this.options.onBackgroundError,
    });
  }

  /** Tools unregistered at once (no new call reaches them); the connection closes in the background. */
  private unmount(name: string, mounted: MountedServer): void {
    this.mounted.delete(name);
    if (this.registry?.plugins().includes(mounted.plugin)) this.registry.unregisterPlugin(mounted.plugin.name);
    this.track(Promise.resolve(mounted.plugin.close?.()));
  }

  private track(work: Promise<unknown>): void {
    const tracked = work.catch((error: unknown) => this.options.onBackgroundError(error)).finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }

  private reportConfigProblem(message: string, error: unknown): void {
    const at = this.problems.findIndex((p) => p.plugin === MCP_CONFIG_FILE);
    if (at >= 0) this.problems.splice(at, 1);
    if (message) this.problems.push({ plugin: MCP_CONFIG_FILE, problems: [`${message} (the servers mounted before stay as they were)`] });
    // Once per distinct problem: an editor saving a half-written file twice is one report.
    if (message && message !== this.lastConfigProblem) this.options.onBackgroundError(error);
    this.lastConfigProblem = message;
  }

  /** A server's `sampling/createMessage` (its config enables sampling) to the lent model. */
  private async sample(server: string, call: ActiveCall | undefined, params: CreateMessageRequest['params'], signal: AbortSignal): Promise<CreateMessageResult> {
    const record = (outcome: McpSamplingEvent['outcome'], model: string | null, error: string | null): void => {
      if (!call?.taskId) return;
      this.progress.emit({ type: 'mcp_sampling', taskId: call.taskId, agentId: call.agentId, server, tool: call.tool, messages: params.messages.length, maxTokens: params.maxTokens, outcome, model, error });
    };
    const provider = this.model;
    if (!provider) {
      const why = `sampling is enabled for MCP server ${server} but this host has no model to lend it (no model is configured for this process)`;
      record('refused', null, why);
      throw new McpError(McpErrorCode.InvalidRequest, why);
    }
    try {
      const response = await provider.complete(samplingRequest(params, signal));
      record('answered', response.model, null);
      return samplingResult(response);
    } catch (error) {
      const why = `the model lent to MCP server ${server} failed: ${error instanceof Error ? error.message : String(error)}`;
      record('refused', null, why);
      throw new McpError(McpErrorCode.InternalError, why);
    }
  }

  private async elicit(server: string, taskId: string | null, params: Parameters<Elicitations['ask']>[2], signals: Parameters<Elicitations['ask']>[3]) {
    const { info, answer } = this.elicitations.ask(server, taskId, params, signals);
    if (taskId && this.elicitations.list(taskId).some((p) => p.id === info.id)) {
      // The person's Inbox of the task: durable, listed with the task; the answer comes back over
      // POST /api/mcp/elicitations/:id while the tool call waits.
      const posted = this.inbox
        .post({ messageId: `mcp:${info.id}`, taskId, recipient: 'user', sender: `mcp:${server}`, kind: 'message', body: { elicitationId: info.id, server, message: info.message, requestedSchema: info.requestedSchema } })
        .then(() => undefined, (error: unknown) => this.options.onBackgroundError(error));
      this.posting.set(info.id, posted);
      await posted;
    }
    return answer;
  }

  /** Answered or withdrawn: the question leaves the task's pending Inbox (it stays in the store, consumed). */
  private elicitationSettled(info: PendingElicitation, _outcome: ElicitationOutcome): void {
    const posted = this.posting.get(info.id);
    this.posting.delete(info.id);
    if (!info.taskId || !posted) return;
    void posted
      .then(() => this.options.store.transaction((tx) => tx.inbox.consume(`mcp:${info.id}`, this.options.now().toISOString())))
      .catch((error: unknown) => this.options.onBackgroundError(error));
  }

  private resourcesUpdated(ids: readonly string[]): void {
    for (const id of ids) void this.syncResource?.(id).catch((error: unknown) => this.options.onBackgroundError(error));
  }

  private safeConfig(strict = false): McpConfig {
    try {
      return readConfig(this.options.workspaceDir);
    } catch (error) {
      if (strict) throw error;
      return { mcpServers: {} };
    }
  }
}
