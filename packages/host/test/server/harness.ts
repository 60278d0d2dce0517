import inject, { type InjectOptions, type Response as LightMyRequestResponse } from 'light-my-request';
import WebSocket from 'ws';
import { LiveTestClient } from '../../src/testkit/live-client';
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
  /** Listens like `listen`, and resolves with the page's URL (`http://127.0.0.1:PORT`). */
  listenHttp(): Promise<string>;
  dispose(): Promise<void>;
}

/** A server over a temp workspace, not listening: HTTP tests go through `inject()`. */
export async function startTestServer(options: Partial<ServerOptions> = {}, hostOptions: Partial<HostOptions> = {}): Promise<TestServer> {
  const host = await openTempHost(hostOptions);
  const errors: unknown[] = [];
  const server = await createServer({ host, token: TOKEN, onError: (e) => errors.push(e), live: { heartbeatMs: 0, ...options.live }, ...options });
  let hostHeader = HOST_HEADER;
  const listenHttp = async (): Promise<string> => {
    const { url } = await server.listen();
    hostHeader = new URL(url).host;
    return url;
  };
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
    listenHttp,
    async listen() {
      return `${(await listenHttp()).replace('http', 'ws')}/ws`;
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

export type { LiveMessage as Message } from '../../src/testkit/live-client';
export type TestClient = LiveTestClient;
/** The live test client, authenticated with the test token unless other headers are given. */
export const TestClient = {
  connect: (url: string, headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }): Promise<LiveTestClient> => LiveTestClient.connect(url, headers),
};

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
