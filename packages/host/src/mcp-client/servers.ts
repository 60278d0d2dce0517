import { CoworkError } from '../errors';
import { Inbox } from '../agents/inbox';
import type { PluginProblem, PluginRegistry } from '../plugins/registry';
import type { PluginDefinition } from '../plugins/types';
import type { Store } from '../store/store';
import { Emitter } from '../util/emitter';
import { Approvals } from './approvals';
import { addServer, readConfig, redacted, removeServer, requireServer, type McpConfig } from './config';
import type { ConnectionState } from './connection';
import { Elicitations, type ElicitationOutcome, type PendingElicitation } from './elicitations';
import { MountedServer, type McpProgressEvent } from './mounted-server';
import { pluginName } from './names';

export type { McpProgressEvent, PendingElicitation };

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
  /** `unloaded` when added after this host opened: it loads at the next start. */
  readonly state: ConnectionState | 'unloaded';
  readonly error: string | null;
  readonly tools: string[];
  readonly held: Record<string, string>;
  readonly approvedAt: string | null;
}

/**
 * The workspace's mounted MCP servers (`<workspace>/mcp.json`): one plugin and one persistent
 * connection each. Changes to mcp.json take effect when a host opens; approvals and elicitation
 * answers apply at once.
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

  constructor(private readonly options: McpServersOptions) {
    this.approvals = new Approvals(options.workspaceDir);
    this.inbox = new Inbox(options.store, options.now);
    this.elicitations = new Elicitations(options.now, (info, outcome) => this.elicitationSettled(info, outcome));
    let config: McpConfig = { mcpServers: {} };
    try {
      config = readConfig(options.workspaceDir);
    } catch (error) {
      // A bad mcp.json leaves the servers out, not the host: it is reported like a bad plugin.
      this.problems.push({ plugin: 'mcp.json', problems: [(error as Error).message] });
    }
    for (const [name, server] of Object.entries(config.mcpServers)) {
      this.mounted.set(
        name,
        new MountedServer(name, server, {
          registry: () => this.registry,
          approvals: this.approvals,
          now: options.now,
          onProgress: (event) => this.progress.emit(event),
          onElicit: (server, call, params, signal) => this.elicit(server, call?.taskId ?? null, params, [signal, call?.ended, call?.signal]),
          onResourceUpdated: (_server, ids) => this.resourcesUpdated(ids),
          onBackgroundError: options.onBackgroundError,
        }),
      );
    }
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
    return this.list().find((s) => s.name === name)!;
  }

  remove(name: string): void {
    removeServer(this.options.workspaceDir, name);
    this.approvals.forget(name);
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
    this.elicitations.cancelAll();
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
