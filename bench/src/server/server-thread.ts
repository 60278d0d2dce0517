import { join } from 'node:path';
import { WorkerChannel } from '../worker-channel';
import type { ServerKind, ServerReply, ServerRequest, ServerWorkerInput } from './server-messages';

const WORKER_FILE = join(__dirname, 'server-worker.ts');

type Reply<T extends ServerReply['type']> = Extract<ServerReply, { type: T }>;

/**
 * A server under test in its own worker thread, and the conversation with it: each request gets
 * the next reply, which must be of the expected type. A crash or an early exit rejects whoever
 * waits.
 */
export class ServerThread {
  private stopping = false;

  private constructor(
    private readonly channel: WorkerChannel<ServerReply, ServerRequest>,
    private readonly address: Reply<'ready'>,
  ) {}

  /** Starts a worker and resolves once its server listens. */
  static async start(kind: ServerKind): Promise<ServerThread> {
    const channel = new WorkerChannel<ServerReply, ServerRequest>(WORKER_FILE, { kind } satisfies ServerWorkerInput, `${kind} server worker`);
    try {
      return new ServerThread(channel, await channel.next('ready'));
    } catch (error) {
      await channel.terminate();
      throw error;
    }
  }

  get url(): string {
    return this.address.url;
  }

  get token(): string {
    return this.address.token;
  }

  async request<T extends ServerReply['type']>(message: ServerRequest, expected: T): Promise<Reply<T>> {
    const reply = this.channel.next(expected);
    this.channel.send(message);
    return reply;
  }

  /** Closes the server (and removes its workspace), then ends the thread. */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    try {
      if (!this.channel.failed) await this.request({ type: 'stop' }, 'stopped');
    } finally {
      await this.channel.terminate();
    }
  }
}
