import type { CreateMessageRequest, CreateMessageResult, ElicitRequest, ElicitResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { CoworkError, isCoworkError } from '../errors';
import type { PluginRegistry } from '../plugins/registry';
import type { PluginDefinition, ResourceKind, ToolContext, ToolDefinition, ToolResult } from '../plugins/types';
import type { Json } from '../store/records';
import { asJson, isPlainObject } from '../util/json';
import { toolHash, type Approvals } from './approvals';
import type { McpServerConfig } from './config';
import { McpConnection } from './connection';
import { agentToolName, pluginName } from './names';
import { mcpResourceKind } from './resource-kind';
import { toToolResult } from './tool-result';

/** What a mounted server's tool call adds to its task's events (page, WebSocket). */
export type McpProgressEvent = McpToolProgressEvent | McpSamplingEvent;

/** A progress notification of a running MCP tool call, for the task's events. */
export interface McpToolProgressEvent {
  readonly type: 'mcp_progress';
  readonly taskId: string;
  readonly agentId: string | null;
  readonly server: string;
  readonly tool: string;
  readonly progress: number;
  readonly total: number | null;
  readonly message: string | null;
}

/** A server asked the lent model for a completion (`sampling/createMessage`) while serving the task's call. */
export interface McpSamplingEvent {
  readonly type: 'mcp_sampling';
  readonly taskId: string;
  readonly agentId: string | null;
  readonly server: string;
  readonly tool: string;
  readonly messages: number;
  readonly maxTokens: number;
  /** `answered` with the model's name, or `refused` with why. */
  readonly outcome: 'answered' | 'refused';
  readonly model: string | null;
  readonly error: string | null;
}

export interface MountedServerDeps {
  readonly registry: () => PluginRegistry | undefined;
  readonly approvals: Approvals;
  readonly now: () => Date;
  readonly onProgress: (event: McpProgressEvent) => void;
  readonly onElicit: (server: string, call: ActiveCall | undefined, params: ElicitRequest['params'], signal: AbortSignal) => Promise<ElicitResult>;
  readonly onSample: (server: string, call: ActiveCall | undefined, params: CreateMessageRequest['params'], signal: AbortSignal) => Promise<CreateMessageResult>;
  readonly onResourceUpdated: (server: string, resourceIds: readonly string[]) => void;
  readonly onBackgroundError: (error: unknown) => void;
}

/** A tool call in flight, so that a server's elicitation can be tied to the task it serves. */
export interface ActiveCall {
  readonly taskId: string | null;
  readonly agentId: string | null;
  /** The agent tool name (`<server>__<tool>`). */
  readonly tool: string;
  /** Aborts when the call ends, however it ends: a question it asked is then withdrawn. */
  readonly ended?: AbortSignal;
  /** The task's signal: cancelling the task withdraws the question too. */
  readonly signal?: AbortSignal;
}

/**
 * One server from mcp.json, loaded as a plugin (`mcp.<name>`): its connection, its tools as agent
 * tools (`<name>__<tool>`), its resources as a kind with external revisions, and which tools are held
 * because they changed since a person approved the server.
 */
export class MountedServer {
  readonly connection: McpConnection;
  readonly plugin: PluginDefinition;
  private agentTools: ToolDefinition[] = [];
  private held = new Map<string, string>();
  private readonly active: ActiveCall[] = [];
  private readonly openResources = new Map<string, Set<string>>();

  constructor(
    readonly name: string,
    readonly config: McpServerConfig,
    private readonly deps: MountedServerDeps,
  ) {
    this.connection = new McpConnection(name, config, {
      onTools: (tools) => this.toolsChanged(tools),
      onResourceUpdated: (uri) => this.deps.onResourceUpdated(name, [...(this.openResources.get(uri) ?? [])]),
      // The SDK gives a client no related request id for an elicitation (it is a transport routing
      // hint, never on the wire), so a question is tied to the server's most recent call in progress:
      // exact while one call runs, a best guess when calls of several tasks overlap.
      onElicit: (params, signal) => this.deps.onElicit(name, this.active[this.active.length - 1], params, signal),
      onSample: (params, signal) => this.deps.onSample(name, this.active[this.active.length - 1], params, signal),
    });
    const kind: ResourceKind = mcpResourceKind(name, this.connection, (resourceId, uri) => {
      let ids = this.openResources.get(uri);
      if (!ids) this.openResources.set(uri, (ids = new Set()));
      ids.add(resourceId);
      return () => ids.delete(resourceId);
    });
    const tools = (): ToolDefinition[] => this.agentTools;
    this.plugin = {
      name: pluginName(name),
      version: '0.0.0',
      description: `MCP server ${name} (mounted from mcp.json)`,
      kinds: [kind],
      // A getter: the tools follow the server's `tools/list_changed`.
      get tools() {
        return tools();
      },
      start: async ({ longLived }) => {
        // A short command (`cowork resources list`) does not start every mounted server.
        if (longLived) await this.connection.connect().catch(() => undefined);
      },
      close: async () => this.connection.close(),
    };
  }

  /** Tools held until a person approves again: agent tool name → why. */
  heldTools(): Record<string, string> {
    return Object.fromEntries(this.held);
  }

  /** A person approves the server's tools as they are now; the held ones are released. */
  approve(): void {
    this.deps.approvals.approve(this.name, this.connection.tools, this.deps.now().toISOString());
    this.toolsChanged(this.connection.tools);
  }

  private toolsChanged(tools: readonly Tool[]): void {
    // Unmounted (removed from mcp.json): its plugin is no longer in the registry.
    if (this.connection.state === 'closed') return;
    let approval = this.deps.approvals.get(this.name);
    // Mounting the server was the person's approval of what it offered then (trust on first use).
    if (!approval) approval = this.deps.approvals.approve(this.name, tools, this.deps.now().toISOString());
    const held = new Map<string, string>();
    const definitions: ToolDefinition[] = [];
    const seen = new Set<string>();
    for (const tool of tools) {
      const name = agentToolName(this.name, tool.name);
      if (seen.has(name)) continue;
      seen.add(name);
      const approved = approval.tools[tool.name];
      if (approved !== toolHash(tool)) {
        held.set(name, approved === undefined ? 'new since the server was approved' : 'its description or schema changed since the server was approved');
      }
      definitions.push(this.definition(name, tool, held.has(name)));
    }
    this.held = held;
    this.agentTools = definitions;
    try {
      this.deps.registry()?.replaceTools(this.plugin.name, definitions);
    } catch (error) {
      this.deps.onBackgroundError(error);
    }
  }

  private definition(name: string, tool: Tool, held: boolean): ToolDefinition {
    const registry = this.deps.registry();
    return {
      name,
      // What the server says is untrusted text: the model sees it only once a person approved it
      // (a held tool's new description never reaches the model), and is told whose it is.
      description: held
        ? `[MCP server ${this.name}] held: this tool changed since a person approved the server; its calls are refused until they approve it again`
        : `[MCP server ${this.name}] ${tool.description?.trim() || tool.title || tool.name}`,
      inputSchema: held ? { type: 'object', additionalProperties: true } : usableSchema(tool.inputSchema, registry),
      // Annotations are not trusted to lower care (readOnlyHint would be the server vouching for
      // itself); a tool its server marks destructive only adds a person's approval (the policy's `destructive`).
      permissions: [],
      ...(tool.annotations?.destructiveHint === true ? { impact: 'destructive' as const } : {}),
      handler: (input, context) => this.call(name, tool.name, input, context),
    };
  }

  private async call(name: string, mcpName: string, input: Json, context: ToolContext): Promise<ToolResult> {
    const why = this.held.get(name);
    if (why) {
      const error = new CoworkError('tool_held', `${name} is held: ${why}; a person must approve MCP server ${this.name} again before it runs`, { server: this.name, tool: name });
      return { content: asJson(error.toJSON()), isError: true };
    }
    const ended = new AbortController();
    const call: ActiveCall = { taskId: context.taskId ?? null, agentId: context.agentId ?? null, tool: name, ended: ended.signal, signal: context.signal };
    this.active.push(call);
    try {
      const result = await this.connection.callTool(mcpName, isPlainObject(input) ? input : {}, {
        signal: context.signal,
        onProgress: (p) => {
          if (!context.taskId) return;
          this.deps.onProgress({ type: 'mcp_progress', taskId: context.taskId, agentId: context.agentId ?? null, server: this.name, tool: name, progress: p.progress, total: p.total ?? null, message: p.message ?? null });
        },
      });
      return toToolResult(result);
    } catch (error) {
      if (isCoworkError(error)) return { content: asJson(error.toJSON()), isError: true };
      throw error;
    } finally {
      this.active.splice(this.active.indexOf(call), 1);
      ended.abort();
    }
  }
}

/**
 * The server's input schema when the registry's strict validator takes it (its `$schema` dropped),
 * else an open object schema: the server validates its own input either way.
 */
function usableSchema(schema: Tool['inputSchema'], registry: PluginRegistry | undefined): ToolDefinition['inputSchema'] {
  const { $schema: _ignored, ...rest } = schema as Record<string, unknown>;
  const candidate = { ...rest, type: 'object' } as ToolDefinition['inputSchema'];
  try {
    registry?.compile(candidate);
    return candidate;
  } catch {
    return { type: 'object', additionalProperties: true } as ToolDefinition['inputSchema'];
  }
}
