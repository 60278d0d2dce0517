/**
 * Entry point of the worker thread that runs the server under test, so that the server has an
 * event loop (and, on a 2-core machine, a core) of its own, apart from the load on the main thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { ServerReply, ServerRequest, ServerWorkerInput } from './server-messages';
import { startBare, startBareCas, startCowork, type ServerTarget } from './server-targets';

async function main(port: NonNullable<typeof parentPort>, input: ServerWorkerInput): Promise<void> {
  const target =
    input.kind === 'bare' ? await startBare() : input.kind === 'bare-cas' ? await startBareCas() : await startCowork({ asPerson: input.kind === 'cowork-person', unbatched: input.kind === 'cowork-unbatched' });
  const reply = (message: ServerReply): void => port.postMessage(message);
  // One request at a time, in arrival order, so replies match requests one to one.
  let queue = Promise.resolve();
  port.on('message', (request: ServerRequest) => {
    queue = queue.then(async () => {
      const answer = await handle(target, request);
      reply(answer);
      if (answer.type === 'stopped') port.close();
    });
    // A failure ends the worker; the main thread sees it as the worker's 'error' event.
    queue.catch((error: unknown) => {
      throw error;
    });
  });
  reply({ type: 'ready', url: target.url, token: target.token });
}

async function handle(target: ServerTarget, request: ServerRequest): Promise<ServerReply> {
  switch (request.type) {
    case 'create':
      return { type: 'created', resources: await target.create(request.count) };
    case 'commit': {
      const started = performance.now();
      const revision = await target.commit(request.resourceId, request.text);
      return { type: 'committed', revision, commitMs: performance.now() - started };
    }
    case 'count':
      return { type: 'counted', commits: await target.countSince(request.since), walRestarts: target.walRestarts() };
    case 'stop':
      await target.close();
      return { type: 'stopped' };
  }
}

if (!parentPort) throw new Error('server-worker runs only inside a worker thread');
void main(parentPort, workerData as ServerWorkerInput);
