import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TokenProxy {
  /** Like `http://127.0.0.1:40123`. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * A loopback proxy that adds the server's token to every request, for clients that send none (the
 * conformance suite). It is transparent otherwise: a Host or Origin naming the proxy is rewritten to
 * name the server, and any other (a foreign Host) goes through as sent, so the server's own Host
 * and Origin checks are what the client meets. Bodies and SSE streams are piped both ways.
 */
export async function startTokenProxy(target: string, token: string): Promise<TokenProxy> {
  const upstream = new URL(target);
  let own = '';
  const server: Server = createServer((req, res) => {
    const headers: IncomingHttpHeaders = { ...req.headers, authorization: `Bearer ${token}` };
    const rename = (value: string): string => value.replace(own, upstream.host);
    if (typeof headers.host === 'string') headers.host = rename(headers.host);
    if (typeof headers.origin === 'string') headers.origin = rename(headers.origin);
    const forward = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => res.destroy());
    res.on('close', () => forward.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  own = `127.0.0.1:${port}`;
  return {
    url: `http://${own}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
