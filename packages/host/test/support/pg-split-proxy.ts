import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a PostgreSQL server that delivers each ReadyForQuery ('Z') following an
 * ErrorResponse ('E') on its own, a few milliseconds late: what a loaded machine or a real network
 * does now and then. node-postgres answers a failed query on the ErrorResponse, so until that
 * ReadyForQuery arrives the connection still reports its old transaction status.
 */
export interface SplitProxy {
  /** The URL to use instead of the server's. */
  readonly url: string;
  close(): Promise<void>;
}

export async function startSplitProxy(serverUrl: string, delayMs = 20): Promise<SplitProxy> {
  const target = new URL(serverUrl);
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    sockets.add(client).add(upstream);
    client.pipe(upstream);
    upstream.on('data', splitter(client, delayMs));
    const end = (): void => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const url = new URL(serverUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Forwards whole messages in order; a 'Z' right after an 'E' waits delayMs, and so does all after it. */
function splitter(client: Socket, delayMs: number): (chunk: Buffer) => void {
  let pending = Buffer.alloc(0);
  let chain = Promise.resolve();
  let lastType = '';
  return (chunk) => {
    pending = Buffer.concat([pending, chunk]);
    while (pending.length >= 5) {
      const length = 1 + pending.readUInt32BE(1);
      if (pending.length < length) break;
      const message = pending.subarray(0, length);
      pending = pending.subarray(length);
      const type = String.fromCharCode(message[0]!);
      const late = type === 'Z' && lastType === 'E';
      lastType = type;
      chain = chain.then(async () => {
        if (late) await new Promise((resolve) => setTimeout(resolve, delayMs));
        if (!client.destroyed) client.write(message);
      });
    }
  };
}
