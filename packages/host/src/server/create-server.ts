import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import type { CoworkError } from '../errors';
import type { Host } from '../host';
import type { ModelProvider } from '../models/types';
import type { Operator } from '../store/records';
import { HostAllowList } from './access';
import type { ServerContext } from './context';
import { Credentials } from './credentials';
import { manifestOf } from '../agents/publications';
import { asJson } from '../util/json';
import { UserDirectory } from '../identity/user-directory';
import { clientErrorHandler, frameworkErrorHandler, installErrorHandling } from './errors';
import { guard, SECURITY_HEADERS } from './guard';
import { registerWebAssets } from './page';
import { registerVendorAssets } from './vendor';
import { collectRoutes, openApiDocument } from './openapi';
import { registerUserRoutes } from './routes/users';
import { registerApprovalRoutes } from './routes/approvals';
import { registerAuthRoutes } from './routes/auth';
import { registerBenchRoutes } from './routes/bench';
import { registerCandidateRoutes } from './routes/candidates';
import { registerDemoRoutes } from './routes/demo';
import { hostVersion, registerMetaRoutes } from './routes/meta';
import { registerResourceRoutes } from './routes/resources';
import { APP_HEADERS, registerAppRoutes } from './routes/apps';
import { FRAMED_EXPORT_HEADERS, isInlineExport } from './routes/exports';
import { registerExportRoutes } from './routes/exports';
import { registerImportRoutes } from './routes/imports';
import { registerMcpServerRoutes } from './routes/mcp-servers';
import { registerMcpRoutes } from './routes/mcp';
import { registerTaskRoutes } from './routes/tasks';
import { registerPublicationRoutes } from './routes/publications';
import { registerWorkFileRoutes } from './routes/work-files';
import { registerRunRoutes } from './routes/runs';
import { registerJobLogRoutes } from './routes/job-logs';
import { TaskEvents } from './task-events';
import { TaskEventRelay } from './task-event-relay';
import { TaskRunner, type TaskRunnerOptions } from './task-runner';
import { LiveHub, type HubOptions } from './ws/hub';

export const DEFAULT_LISTEN_HOST = '127.0.0.1';
export const DEFAULT_PORT = 7420;
export const DEFAULT_REQUEST_TIMEOUT_MS = 120_000;

export interface ServerOptions {
  readonly host: Host;
  /** The bearer token every request must carry (see `resolveToken`). */
  readonly token: string;
  /** Where `listen` binds (default 127.0.0.1), and so which `Host` headers are accepted. */
  readonly listenHost?: string;
  /** Default 7420; 0 picks a free port. */
  readonly port?: number;
  /** More names the server answers to in `Host` (like `myhost.lan:7420`) beyond its address and localhost. */
  readonly allowedHosts?: readonly string[];
  /** The model for tasks; without one, task routes only read. */
  readonly provider?: ModelProvider;
  readonly providerError?: CoworkError;
  readonly runtime?: TaskRunnerOptions['runtime'];
  /** How often to look for tasks whose host died, to run them here (ms; 0 never; default a third of the lease). */
  readonly takeoverPollMs?: number;
  /** Largest request body or WebSocket message, in bytes (default 9 MiB: the host's 8 MiB content limit plus the envelope). */
  readonly bodyLimit?: number;
  /**
   * The longest a client may take to send a whole request, headers and body (default 120 s, or
   * `COWORK_REQUEST_TIMEOUT_MS` for `cowork serve`): a body trickled a byte at a time is cut off
   * with 408 `request_timeout` instead of holding its connection for as long as it likes.
   */
  readonly requestTimeoutMs?: number;
  readonly live?: HubOptions;
  readonly ticketTtlMs?: number;
  readonly sessionTtlMs?: number;
  /** Who creates a resource when the request names no operator (default `human:user`). */
  readonly defaultOperator?: Operator;
  /** Failures no request is waiting for (a background task run, a 500's real cause). Default: stderr. */
  readonly onError?: (error: unknown) => void;
  /** The clock for ticket and session expiry (tests). */
  readonly now?: () => number;
}

export interface CoworkServer {
  readonly app: FastifyInstance;
  readonly tasks: TaskRunner;
  readonly live: LiveHub;
  /** Listens on the configured address; resolves with the URL (and the port, when 0 was asked). */
  listen(): Promise<{ url: string; port: number }>;
  /** Closes clients, stops running tasks (they stay resumable) and the listener. The host stays open: its opener closes it. */
  close(): Promise<void>;
}

/**
 * Builds the HTTP and WebSocket server over one open host. Everything it creates hangs off the
 * returned object (no module state), so several servers can run in one process (tests do).
 */
export async function createServer(options: ServerOptions): Promise<CoworkServer> {
  const listenHost = options.listenHost ?? DEFAULT_LISTEN_HOST;
  const onError = options.onError ?? ((error: unknown) => void process.stderr.write(`cowork server: ${String((error as Error)?.stack ?? error)}\n`));
  const bodyLimit = options.bodyLimit ?? 9 * 1024 * 1024;
  const allowList = new HostAllowList(listenHost, options.allowedHosts);
  allowList.setPort(options.port ?? DEFAULT_PORT);
  const credentials = new Credentials({
    ticketTtlMs: options.ticketTtlMs ?? 30_000,
    sessionTtlMs: options.sessionTtlMs ?? 12 * 3600_000,
    maxSessions: 100,
    now: options.now,
  });
  const events = new TaskEvents();
  // Other hosts' task events reach this one's live clients, and this one's theirs (PostgreSQL).
  const relay = await TaskEventRelay.start({ store: options.host.store, events, hostName: options.host.leases.holder.text, onError });
  const tasks = new TaskRunner(options.host, events, {
    provider: options.provider,
    providerError: options.providerError,
    runtime: options.runtime,
    onBackgroundError: onError,
    ...(options.takeoverPollMs !== undefined && { takeoverPollMs: options.takeoverPollMs }),
  });
  // A mounted MCP server's progress reports go to the task's live clients (page, WebSocket).
  const stopMcpProgress = options.host.mcp.onProgress((event) => events.publish(event));
  // A mounted server's question posted to a task's Inbox reaches the task's live clients as other posts do.
  const stopMcpInbox = options.host.mcp.onInboxPosted((m) => events.publish({ type: 'inbox_posted', ...m }));
  // A call waiting for a person, and the decision, reach the task's live clients (page, WebSocket).
  const stopApprovals = options.host.approvals.onChange((approval) => events.publish({ type: 'approval', taskId: approval.taskId, approval: asJson(approval) }));
  // A task's new published result reaches its live clients (page, WebSocket).
  const stopPublished = options.host.publications.onPublished((p) => events.publish({ type: 'published', taskId: p.taskId, publication: asJson(manifestOf(p)) }));
  const users = new UserDirectory(options.host.store);
  const defaultOperator = options.defaultOperator ?? 'human:user';
  const live = new LiveHub(options.host, events, { users, defaultOperator }, options.live);
  const ctx: ServerContext = { host: options.host, tasks, credentials, users, token: options.token, defaultOperator, version: hostVersion() };

  // No logger: URLs may carry a WebSocket ticket, and nothing here should ever write a secret out.
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const app = Fastify({
    logger: false,
    bodyLimit,
    requestTimeout: requestTimeoutMs,
    // Node checks for late requests on this interval; a quarter of the limit keeps the cut-off near it.
    http: { connectionsCheckingInterval: Math.max(100, Math.min(30_000, Math.floor(requestTimeoutMs / 4))), headersTimeout: Math.min(30_000, requestTimeoutMs) },
    clientErrorHandler: clientErrorHandler(SECURITY_HEADERS),
    routerOptions: { maxParamLength: 256 },
    forceCloseConnections: true,
    frameworkErrors: frameworkErrorHandler(SECURITY_HEADERS),
  });
  const close = async (): Promise<void> => {
    stopMcpProgress();
    stopMcpInbox();
    stopApprovals();
    stopPublished();
    live.close();
    await tasks.close();
    // After the tasks: what they published as they stopped still reaches the other hosts.
    await relay?.close();
    await app.close();
  };
  try {
    installErrorHandling(app, onError);
    // Only JSON bodies: a text/plain POST is what a cross-site form can send without a preflight.
    app.removeContentTypeParser('text/plain');
    const routes = collectRoutes(app);
    await app.register(websocket, { options: { maxPayload: bodyLimit } });
    // After the websocket plugin's own hook, which marks upgrade requests: a refused upgrade is
    // then answered and its socket destroyed, instead of left open.
    app.decorateRequest('principal', null as never);
    app.addHook('onRequest', guard({ token: options.token, allowList, credentials, users }));
    app.addHook('onSend', async (request, reply, payload) => {
      const { config } = request.routeOptions;
      void reply.headers(config.app === true ? APP_HEADERS : config.framedExport === true && isInlineExport(request.query) ? FRAMED_EXPORT_HEADERS : SECURITY_HEADERS);
      return payload;
    });
    app.get('/ws', { websocket: true, config: { ticket: true } }, (socket, request) => live.accept(socket, request.principal));
    registerMetaRoutes(app, ctx);
    registerWebAssets(app);
    registerVendorAssets(app);
    registerAuthRoutes(app, ctx);
    registerUserRoutes(app, ctx, live);
    registerApprovalRoutes(app, ctx);
    registerResourceRoutes(app, ctx);
    registerExportRoutes(app, ctx);
    registerImportRoutes(app, ctx);
    registerAppRoutes(app, ctx);
    registerCandidateRoutes(app, ctx);
    registerTaskRoutes(app, ctx);
    registerPublicationRoutes(app, ctx);
    registerWorkFileRoutes(app, ctx);
    registerRunRoutes(app, ctx);
    registerJobLogRoutes(app, ctx);
    registerDemoRoutes(app, ctx);
    registerBenchRoutes(app, ctx);
    registerMcpServerRoutes(app, ctx);
    await registerMcpRoutes(app, ctx, onError);
    app.get('/api/openapi.json', { schema: { summary: 'This document', tags: ['meta'] } }, async () => openApiDocument(routes, ctx.version));
    await app.ready();
  } catch (error) {
    await close();
    throw error;
  }

  return {
    app,
    tasks,
    live,
    async listen() {
      await app.listen({ host: listenHost, port: options.port ?? DEFAULT_PORT });
      const address = app.server.address();
      const port = typeof address === 'object' && address ? address.port : (options.port ?? DEFAULT_PORT);
      allowList.setPort(port);
      const shown = listenHost.includes(':') ? `[${listenHost}]` : listenHost;
      return { url: `http://${shown}:${port}`, port };
    },
    close,
  };
}
