import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { McpHostServer } from './host-server';

export interface HttpSessionOptions {
  /** A session with no request for this long is closed (default 30 minutes); its client initializes again. */
  readonly idleMs?: number;
  /** At most this many sessions; a new one closes the least recently used (default 100). */
  readonly maxSessions?: number;
}

interface Session {
  readonly transport: StreamableHTTPServerTransport;
  lastSeen: number;
}

/**
 * Streamable HTTP sessions: an `initialize` without a session id opens one (its own SDK server and
 * transport), later requests name it in `Mcp-Session-Id`. Sessions end when the client DELETEs
 * them, when idle too long, or when the edge closes; a closed transport leaves the map at once.
 * The caller has already checked Host, Origin and the token.
 */
export class McpHttpSessions {
  private readonly sessions = new Map<string, Session>();
  private readonly idleMs: number;
  private readonly maxSessions: number;
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly mcp: McpHostServer,
    options: HttpSessionOptions = {},
  ) {
    this.idleMs = options.idleMs ?? 30 * 60_000;
    this.maxSessions = options.maxSessions ?? 100;
    this.sweeper = setInterval(() => this.sweep(), Math.max(1000, Math.floor(this.idleMs / 4)));
    this.sweeper.unref();
  }

  get size(): number {
    return this.sessions.size;
  }

  /** Answers one request on `/mcp` (POST, GET or DELETE); `body` is the parsed JSON of a POST. */
  async handle(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const header = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(header) ? header[0] : header;
    if (sessionId !== undefined) {
      const session = this.sessions.get(sessionId);
      // The spec's answer to a session that ended: 404, and the client starts a new one.
      if (!session) return rpcError(res, 404, -32001, 'session not found: initialize a new session');
      session.lastSeen = Date.now();
      return session.transport.handleRequest(req, res, body);
    }
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
      return rpcError(res, 400, -32000, 'no session: send initialize first, then the Mcp-Session-Id it returns');
    }
    await (await this.open()).handleRequest(req, res, body);
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.allSettled([...this.sessions.values()].map((s) => s.transport.close()));
    this.sessions.clear();
  }

  private async open(): Promise<StreamableHTTPServerTransport> {
    while (this.sessions.size >= this.maxSessions) this.closeSession(this.leastRecent()!);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void this.sessions.set(id, { transport, lastSeen: Date.now() }),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) this.sessions.delete(transport.sessionId);
    };
    await this.mcp.session().connect(transport);
    return transport;
  }

  private sweep(): void {
    const cutoff = Date.now() - this.idleMs;
    for (const [id, session] of this.sessions) if (session.lastSeen < cutoff) this.closeSession(id);
  }

  private leastRecent(): string | undefined {
    let oldest: [string, number] | undefined;
    for (const [id, s] of this.sessions) if (!oldest || s.lastSeen < oldest[1]) oldest = [id, s.lastSeen];
    return oldest?.[0];
  }

  private closeSession(id: string): void {
    const session = this.sessions.get(id);
    this.sessions.delete(id);
    void session?.transport.close();
  }
}

/** A JSON-RPC error answered before any transport sees the request. */
export function rpcError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
