import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type LoggingLevel,
} from '@modelcontextprotocol/sdk/types.js';
import type { Host } from '../host';
import { UserDirectory } from '../identity/user-directory';
import type { People } from '../identity/principal';
import { principalOf } from './operator';
import { REVISION_PROTOCOL_PROMPT, REVISION_PROTOCOL_TEXT } from './prompts';
import { isNotFound, RESOURCE_NOT_FOUND, ResourceReader } from './resource-reader';
import { Subscriptions, type SessionSink } from './subscriptions';
import type { McpTaskPort } from './task-port';
import { ToolCatalog } from './tool-catalog';

export interface McpHostOptions {
  /** The task runner the edge uses; without one, the task tools are not offered. */
  readonly tasks?: McpTaskPort;
  /** The host's version, reported in `initialize`. */
  readonly version: string;
  /** How often subscribed resources are checked for commits by other processes (default 1000 ms; 0: never). */
  readonly subscriptionPollMs?: number;
  /** Failures no request waits for (a notification that could not be sent). */
  readonly onError?: (error: unknown) => void;
}

const INSTRUCTIONS =
  'A cowork host: shared resources that people and agents edit together, with revisions. Read before you commit, commit with baseRevision, and act on revision_conflict (see the revision_protocol prompt). start_task hands work to the host\'s own agent.';

/**
 * The host served over MCP. One per edge (the `/mcp` route, `cowork mcp serve`): it holds what
 * sessions share (the tool catalog, the resource subscriptions), and `session()` makes the SDK
 * server of one session; an SDK server connects one transport only, so each session gets its own.
 */
export class McpHostServer {
  private readonly tools: ToolCatalog;
  private readonly reader: ResourceReader;
  private readonly subscriptions: Subscriptions;
  private readonly onError: (error: unknown) => void;
  private readonly people: People;

  constructor(
    host: Host,
    private readonly options: McpHostOptions,
  ) {
    this.tools = new ToolCatalog(host, options.tasks);
    this.people = new UserDirectory(host.store);
    this.reader = new ResourceReader(host);
    this.subscriptions = new Subscriptions(host, { pollMs: options.subscriptionPollMs, onError: options.onError });
    this.onError = options.onError ?? (() => undefined);
  }

  /** A new SDK server for one session; it joins the subscriptions until its transport closes. */
  session(): Server {
    const server = new Server(
      { name: 'cowork', title: 'cowork host', version: this.options.version },
      {
        capabilities: { tools: { listChanged: false }, resources: { subscribe: true, listChanged: true }, prompts: {}, logging: {} },
        instructions: INSTRUCTIONS,
      },
    );
    const sink: SessionSink = {
      resourceUpdated: (uri) => void server.sendResourceUpdated({ uri }).catch(this.onError),
      listChanged: () => void server.sendResourceListChanged().catch(this.onError),
    };
    this.subscriptions.open(sink);
    server.onclose = () => this.subscriptions.drop(sink);
    const log = (level: LoggingLevel, data: Record<string, unknown>): void =>
      void server.sendLoggingMessage({ level, logger: 'cowork', data }, server.transport?.sessionId).catch(this.onError);

    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: this.tools.list().map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema as { type: 'object' } })),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const tool = this.tools.find(request.params.name);
      if (!tool) throw new McpError(ErrorCode.InvalidParams, `unknown tool ${JSON.stringify(request.params.name)}`);
      const result = await this.tools.call(tool, request.params.arguments, { signal: extra.signal, principal: principalOf(extra.authInfo), people: this.people });
      log(result.isError ? 'warning' : 'info', { tool: tool.name, isError: result.isError === true });
      return result;
    });
    server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: await this.reader.list() }));
    server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: this.reader.templates() }));
    server.setRequestHandler(ReadResourceRequestSchema, async (request) => this.resourceCall(request.params.uri, () => this.reader.read(request.params.uri)));
    server.setRequestHandler(SubscribeRequestSchema, async (request) =>
      this.resourceCall(request.params.uri, async () => {
        // Only a resource that exists can be subscribed to: a typo should not wait forever.
        const { revision } = await this.reader.head(request.params.uri);
        this.subscriptions.subscribe(sink, request.params.uri, revision);
        return {};
      }),
    );
    server.setRequestHandler(UnsubscribeRequestSchema, async (request) =>
      this.resourceCall(request.params.uri, async () => {
        this.subscriptions.unsubscribeFrom(sink, request.params.uri);
        return {};
      }),
    );
    server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: [REVISION_PROTOCOL_PROMPT] }));
    server.setRequestHandler(GetPromptRequestSchema, async (request) => {
      if (request.params.name !== REVISION_PROTOCOL_PROMPT.name) throw new McpError(ErrorCode.InvalidParams, `unknown prompt ${JSON.stringify(request.params.name)}`);
      return { description: REVISION_PROTOCOL_PROMPT.description, messages: [{ role: 'user' as const, content: { type: 'text' as const, text: REVISION_PROTOCOL_TEXT } }] };
    });
    return server;
  }

  close(): void {
    this.subscriptions.close();
  }

  /** Runs a resource request; a URI naming nothing is the spec's "resource not found" error. */
  private async resourceCall<T>(uri: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (isNotFound(error)) throw new McpError(RESOURCE_NOT_FOUND as ErrorCode, `resource not found: ${uri}`, { uri });
      throw error;
    }
  }
}
