/**
 * Entry point of the worker thread that runs the raw `ws` broadcast baseline (see raw-broadcast.ts).
 * It speaks just enough of the real server's protocol for the same clients: `subscribe` is
 * answered with `subscribed` and puts the socket on the broadcast list; nothing else is looked at.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { WebSocketServer, type WebSocket } from 'ws';
import type { RawReply, RawRequest, RawWorkerInput } from './raw-broadcast';

/** As server-targets' LISTEN_HOST, without loading the host into this thread. */
const LISTEN_HOST = '127.0.0.1';

async function main(port: NonNullable<typeof parentPort>, input: RawWorkerInput): Promise<void> {
  const { template } = input;
  const resourceId = String(template.resourceId ?? 'raw');
  const subscribers = new Set<WebSocket>();
  let revision = 0;

  const server = new WebSocketServer({ host: LISTEN_HOST, port: 0, path: '/ws', perMessageDeflate: false });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  server.on('connection', (socket) => {
    socket.on('message', (data) => {
      const frame = JSON.parse(String(data)) as { type?: string; sinceRevision?: number };
      if (frame.type !== 'subscribe') return;
      subscribers.add(socket);
      socket.send(JSON.stringify({ type: 'subscribed', resourceId, sinceRevision: frame.sinceRevision ?? revision, currentRevision: revision }));
    });
    socket.on('close', () => subscribers.delete(socket));
  });

  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('the raw ws server has no TCP address');
  const reply = (message: RawReply): void => port.postMessage(message);
  port.on('message', (request: RawRequest) => {
    if (request.type === 'broadcast') {
      const started = performance.now();
      revision++;
      // The template's keys in its order, revision and op.text replaced: the same frame shape as the server's.
      const text = JSON.stringify({ ...template, resourceId, revision, op: { ...template.op, text: request.text } });
      let sent = 0;
      for (const socket of subscribers) {
        if (socket.readyState !== socket.OPEN) continue;
        socket.send(text);
        sent++;
      }
      reply({ type: 'broadcasted', revision, broadcastMs: performance.now() - started, sent });
    } else {
      for (const socket of server.clients) socket.terminate();
      server.close(() => {
        reply({ type: 'stopped' });
        port.close();
      });
    }
  });
  reply({ type: 'ready', url: `ws://${LISTEN_HOST}:${address.port}/ws`, resourceId, revision });
}

if (!parentPort) throw new Error('raw-broadcast-worker runs only inside a worker thread');
void main(parentPort, workerData as RawWorkerInput);
