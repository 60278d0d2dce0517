import inject, { type InjectOptions, type Response as LightMyRequestResponse } from 'light-my-request';
import WebSocket from 'ws';
import { createServer, type CoworkServer, type ServerOptions } from '../../src/server/create-server';
import type { Host, HostOptions } from '../../src/host';
import { openTempHost } from '../support/temp-host';

export const TOKEN = 'test-token-0123456789abcdef';
/** The Host header of a server configured for the default port (in-process requests never listen). */
export const HOST_HEADER = '127.0.0.1:7420';

export interface TestServer {
  host: Host & { dispose: () => Promise<void> };
  server: CoworkServer;
  errors: unknown[];
  /** An authenticated in-process request; `headers` add to (or, set to undefined, remove) the defaults. */
  request(options: Omit<InjectOptions, 'headers'> & { headers?: Record<string, string | undefined> }): Promise<LightMyRequestResponse>;
  /** Listens (configure `port: 0`) and resolves with the WebSocket URL; later requests carry the bound Host. */
  listen(): Promise<string>;
  dispose(): Promise<void>;
}

/** A server over a temp workspace, not listening: HTTP tests go through `inject()`. */
export async function startTestServer(options: Partial<ServerOptions> = {}, hostOptions: Partial<HostOptions> = {}): Promise<TestServer> {
  const host = await openTempHost(hostOptions);
  const errors: unknown[] = [];
  const server = await createServer({ host, token: TOKEN, onError: (e) => errors.push(e), live: { heartbeatMs: 0, ...options.live }, ...options });
  let hostHeader = HOST_HEADER;
  return {
    host,
    server,
    errors,
    request(request) {
      const headers: Record<string, string> = {};
      const given: Record<string, string | undefined> = { authorization: `Bearer ${TOKEN}`, host: hostHeader, ...request.headers };
      for (const [name, value] of Object.entries(given)) if (value !== undefined) headers[name] = value;
      // `app.inject()` is this call with the light-my-request fastify resolves: its newest release
      // needs cookie 2, which is ESM only and jest cannot require on Node 20. This package pins the
      // previous one (a dev dependency) and injects through the same handler, `app.routing`.
      return inject(server.app.routing, { ...request, headers });
    },
    async listen() {
      const { url } = await server.listen();
      hostHeader = new URL(url).host;
      return `${url.replace('http', 'ws')}/ws`;
    },
    async dispose() {
      await server.close();
      await host.dispose();
    },
  };
}

/** The parsed JSON body of a response. */
export function body<T = Record<string, unknown>>(response: LightMyRequestResponse): T {
  return JSON.parse(response.body) as T;
}

/** The error code of an error response. */
export function errorCode(response: LightMyRequestResponse): string | undefined {
  try {
    return (JSON.parse(response.body) as { error?: { code?: string } }).error?.code;
  } catch {
    return undefined;
  }
}

export type Message = Record<string, unknown> & { type: string };

/** A WebSocket client that records every message and can wait for one matching a predicate. */
export class TestClient {
  readonly messages: Message[] = [];
  closed: { code: number; reason: string } | undefined;
  private waiters: { test: (m: Message[]) => boolean; resolve: () => void }[] = [];
  private closeWaiters: (() => void)[] = [];

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.messages.push(JSON.parse(String(data)) as Message);
      this.check();
    });
    socket.on('close', (code, reason) => {
      this.closed = { code, reason: String(reason) };
      for (const resolve of this.closeWaiters) resolve();
      this.check();
    });
  }

  static connect(url: string, headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }): Promise<TestClient> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { headers });
      socket.once('open', () => resolve(new TestClient(socket)));
      socket.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
      socket.once('error', reject);
    });
  }

  send(message: Record<string, unknown>): void {
    this.socket.send(JSON.stringify(message));
  }

  /** Resolves once the recorded messages satisfy `test` (checked on every message). */
  until(test: (messages: Message[]) => boolean, what = 'messages', timeoutMs = 20_000): Promise<void> {
    if (test(this.messages)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}; got ${JSON.stringify(this.messages.slice(-3))}`)), timeoutMs);
      this.waiters.push({ test, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }

  /** The first message of a type (and requestId, when given), once it arrives. */
  async next(type: string, requestId?: string): Promise<Message> {
    const match = (m: Message): boolean => m.type === type && (requestId === undefined || m.requestId === requestId);
    await this.until((ms) => ms.some(match), `a ${type} message`);
    return this.messages.find(match)!;
  }

  revisions(resourceId: string): number[] {
    return this.messages.filter((m) => m.type === 'revision' && m.resourceId === resourceId).map((m) => m.revision as number);
  }

  whenClosed(): Promise<void> {
    return this.closed ? Promise.resolve() : new Promise((resolve) => this.closeWaiters.push(resolve));
  }

  close(): Promise<void> {
    this.socket.close();
    return this.whenClosed();
  }

  private check(): void {
    this.waiters = this.waiters.filter((w) => {
      if (!w.test(this.messages)) return true;
      w.resolve();
      return false;
    });
  }
}

/** The outcome of an upgrade attempt: the HTTP status it was refused with, or 101. */
export function upgradeStatus(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.once('open', () => {
      socket.close();
      resolve(101);
    });
    socket.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      res.resume();
      socket.terminate();
    });
    socket.once('error', reject);
  });
}

/** An array 0..n-1. */
export function range(n: number, from = 0): number[] {
  return Array.from({ length: n }, (_, i) => from + i);
}
