import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode as McpErrorCode,
  McpError,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type CreateMessageRequest,
  type CreateMessageResult,
  type ElicitRequest,
  type ElicitResult,
  type Progress,
  type ReadResourceResult,
  type Resource,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { CoworkError } from '../errors';
import { isHttpConfig, type McpServerConfig, type StdioServerConfig } from './config';

export const DEFAULT_CALL_TIMEOUT_MS = 60_000;
const CONNECT_TIMEOUT_MS = 20_000;
const BACKOFF_FIRST_MS = 200;
const BACKOFF_MAX_MS = 10_000;

export type ConnectionState = 'connecting' | 'ready' | 'down' | 'closed';

export interface ConnectionHooks {
  /** The server's tools after a (re)connect or a `tools/list_changed`. */
  onTools?(tools: readonly Tool[]): void;
  onResourceUpdated?(uri: string): void;
  /** Form elicitation from the server; without a hook it is declined. */
  onElicit?(request: ElicitRequest['params'], signal: AbortSignal): Promise<ElicitResult>;
  onStateChange?(state: ConnectionState, reason?: string): void;
  /**
   * `sampling/createMessage` from a server whose config enables sampling; without a hook (no model
   * lent to the host's servers) it is refused. Throw an `McpError` to refuse with a reason.
   */
  onSample?(request: CreateMessageRequest['params'], signal: AbortSignal): Promise<CreateMessageResult>;
}

export interface CallOptions {
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
  readonly onProgress?: (progress: Progress) => void;
}

/**
 * One persistent connection to one MCP server: spawned (stdio) or opened (Streamable HTTP) once,
 * reused by every call, and restarted with exponential backoff when it dies. While it is down, calls
 * fail at once with `external_unavailable` rather than wait, so the task goes on.
 */
export class McpConnection {
  /** Processes spawned over the connection's life: one per (re)start, never one per call. */
  spawnCount = 0;
  private client: Client | undefined;
  private transport: Transport | undefined;
  private stateValue: ConnectionState = 'down';
  private lastError = '';
  private toolsValue: readonly Tool[] = [];
  private retryTimer: NodeJS.Timeout | undefined;
  private backoffMs = BACKOFF_FIRST_MS;
  private connecting: Promise<void> | undefined;

  constructor(
    readonly name: string,
    private readonly config: McpServerConfig,
    private readonly hooks: ConnectionHooks = {},
    private readonly clientInfo = { name: 'cowork', version: '0.0.0' },
  ) {}

  get state(): ConnectionState {
    return this.stateValue;
  }

  get tools(): readonly Tool[] {
    return this.toolsValue;
  }

  /** Why the connection is down, when it is. */
  get error(): string {
    return this.lastError;
  }

  /** The server process (stdio), for supervision and tests. */
  get pid(): number | undefined {
    return this.transport instanceof StdioClientTransport ? (this.transport.pid ?? undefined) : undefined;
  }

  serverCapabilities(): ReturnType<Client['getServerCapabilities']> {
    return this.client?.getServerCapabilities();
  }

  /** Connects (once; concurrent callers share the attempt). A failure schedules a retry and rethrows. */
  connect(): Promise<void> {
    if (this.stateValue === 'closed') return Promise.reject(this.unavailable('the connection was closed'));
    if (this.stateValue === 'ready') return Promise.resolve();
    this.connecting ??= this.open().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  async callTool(name: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<CallToolResult> {
    const client = this.readyClient();
    // The SDK never removes the abort listener it adds to a request's signal: a task's signal lives
    // for hours of calls, so each call gets its own signal, linked to the task's and unlinked after.
    const call = new AbortController();
    const forward = (): void => call.abort(options.signal?.reason);
    if (options.signal?.aborted) forward();
    else options.signal?.addEventListener('abort', forward, { once: true });
    try {
      return (await client.callTool({ name, arguments: args }, undefined, {
        signal: call.signal,
        timeout: options.timeoutMs ?? this.config.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
        // A long operation that reports progress is alive: each report restarts the clock.
        resetTimeoutOnProgress: true,
        onprogress: options.onProgress,
      })) as CallToolResult;
    } catch (error) {
      // The SDK reports a cancelled request as a timeout: the caller's signal says which it was.
      if (options.signal?.aborted) throw this.cancelled(`tool ${name}`);
      throw this.callError(error, `tool ${name}`);
    } finally {
      options.signal?.removeEventListener('abort', forward);
    }
  }

  async listResources(): Promise<Resource[]> {
    const client = this.readyClient();
    try {
      return (await client.listResources()).resources;
    } catch (error) {
      throw this.callError(error, 'resources/list');
    }
  }

  async readResource(uri: string): Promise<ReadResourceResult> {
    const client = this.readyClient();
    try {
      return await client.readResource({ uri });
    } catch (error) {
      throw this.callError(error, `resource ${uri}`);
    }
  }

  /** Asks for `notifications/resources/updated` on a URI, where the server offers it; false otherwise. */
  async subscribe(uri: string): Promise<boolean> {
    if (!this.client?.getServerCapabilities()?.resources?.subscribe) return false;
    await this.readyClient().subscribeResource({ uri });
    return true;
  }

  async close(): Promise<void> {
    this.setState('closed');
    clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    this.transport = undefined;
    await client?.close().catch(() => undefined);
  }

  private async open(): Promise<void> {
    clearTimeout(this.retryTimer);
    this.setState('connecting');
    const client = new Client(this.clientInfo, {
      capabilities: {
        elicitation: { form: { applyDefaults: true } },
        // Declared so a server can ask; each request is refused unless the server's config enables it.
        sampling: {},
      },
    });
    this.installHandlers(client);
    const transport = this.makeTransport();
    let closedEarly = false;
    client.onclose = () => {
      if (this.client === client) this.lost('the server closed the connection');
      else closedEarly = true;
    };
    client.onerror = (error) => {
      this.lastError = error.message;
    };
    try {
      await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS });
      if (closedEarly) throw new Error('the server exited while connecting');
      this.client = client;
      this.transport = transport;
      await this.refreshTools();
      this.backoffMs = BACKOFF_FIRST_MS;
      this.lastError = '';
      this.setState('ready');
    } catch (error) {
      this.client = undefined;
      await client.close().catch(() => undefined);
      this.lost(`could not connect: ${(error as Error).message}`);
      throw this.unavailable(this.lastError);
    }
  }

  private makeTransport(): Transport {
    if (isHttpConfig(this.config)) {
      return new StreamableHTTPClientTransport(new URL(this.config.url), { requestInit: { headers: { ...this.config.headers } } });
    }
    const stdio = this.config as StdioServerConfig;
    this.spawnCount += 1;
    return new StdioClientTransport({
      command: stdio.command,
      args: [...(stdio.args ?? [])],
      env: { ...getDefaultEnvironment(), ...stdio.env },
      cwd: stdio.cwd,
      stderr: 'ignore',
    });
  }

  private installHandlers(client: Client): void {
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      if (this.client === client) await this.refreshTools().catch((error: Error) => (this.lastError = error.message));
    });
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, async (notification) => {
      this.hooks.onResourceUpdated?.(notification.params.uri);
    });
    client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
      if (!this.hooks.onElicit) return { action: 'decline' };
      return this.hooks.onElicit(request.params, extra.signal);
    });
    client.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => {
      // A server borrows our model only where a person enabled it for that server.
      if (this.config.sampling !== true) {
        throw new McpError(McpErrorCode.InvalidRequest, `sampling is not enabled for MCP server ${this.name}: a person sets "sampling": true in mcp.json to allow it`);
      }
      if (!this.hooks.onSample) throw new McpError(McpErrorCode.InvalidRequest, 'sampling is enabled for this server but this host has no model to lend it');
      return this.hooks.onSample(request.params, extra.signal);
    });
  }

  private async refreshTools(): Promise<void> {
    const client = this.client;
    if (!client) return;
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined);
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    this.toolsValue = tools;
    this.hooks.onTools?.(tools);
  }

  private readyClient(): Client {
    if (this.stateValue !== 'ready' || !this.client) {
      throw this.unavailable(this.stateValue === 'connecting' ? 'the server is starting' : this.lastError || `the server is ${this.stateValue}`);
    }
    return this.client;
  }

  /** Protocol errors stay the server's answer; a dead connection becomes `external_unavailable`. */
  private callError(error: unknown, what: string): Error {
    if (error instanceof McpError && error.code !== McpErrorCode.ConnectionClosed) {
      if (error.code === McpErrorCode.RequestTimeout) {
        return new CoworkError('plugin_timeout', `MCP server ${this.name}: ${what} timed out`, { server: this.name, limitMs: this.config.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS });
      }
      return new CoworkError('plugin_failed', `MCP server ${this.name}: ${what}: ${error.message}`, { server: this.name, mcpCode: error.code });
    }
    if ((error as Error)?.name === 'AbortError' || (error as { name?: string })?.name === 'AbortError') return error as Error;
    const message = error instanceof Error ? error.message : String(error);
    if (this.stateValue === 'ready' && !/abort/i.test(message)) this.lost(message);
    if (/abort/i.test(message)) return this.cancelled(what);
    return this.unavailable(message);
  }

  private cancelled(what: string): CoworkError {
    return new CoworkError('plugin_failed', `MCP server ${this.name}: ${what} was cancelled`, { server: this.name, cancelled: true });
  }

  private lost(reason: string): void {
    if (this.stateValue === 'closed') return;
    this.lastError = reason;
    const client = this.client;
    this.client = undefined;
    this.transport = undefined;
    void client?.close().catch(() => undefined);
    this.setState('down', reason);
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => void this.connect().catch(() => undefined), this.backoffMs);
    this.retryTimer.unref();
    this.backoffMs = Math.min(BACKOFF_MAX_MS, this.backoffMs * 2);
  }

  private setState(state: ConnectionState, reason?: string): void {
    if (this.stateValue === state) return;
    this.stateValue = state;
    this.hooks.onStateChange?.(state, reason);
  }

  private unavailable(reason: string): CoworkError {
    return new CoworkError('external_unavailable', `MCP server ${this.name} is unavailable: ${reason}`, { server: this.name, reason, state: this.stateValue });
  }
}
