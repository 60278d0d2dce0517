import { join } from 'node:path';
import { WorkerChannel } from '../worker-channel';

/**
 * The baseline for the WebSocket fan-out: a plain `ws` WebSocketServer in a worker thread of its
 * own that, per "commit", serialises one message of the same shape as the real server's `revision`
 * event and sends it to every subscribed client. No auth, no store, no subscription bookkeeping:
 * what fanning one message out to N sockets costs with `ws` alone.
 */

const WORKER_FILE = join(__dirname, 'raw-broadcast-worker.ts');

/**
 * A `revision` message as the real server sends it (`{type, resourceId, revision, action, operator,
 * op}`), used as the template: each broadcast replaces `revision` and `op.text` and keeps the
 * rest, key order included, so the frames have the same shape and, with a text of the same length,
 * the same size.
 */
export interface RevisionTemplate {
  readonly type: 'revision';
  readonly revision: number;
  readonly op: Record<string, unknown>;
  readonly [key: string]: unknown;
}

export interface RawWorkerInput {
  readonly template: RevisionTemplate;
}

/** Main thread to worker; one reply per request, in order. */
export type RawRequest = { readonly type: 'broadcast'; readonly text: string } | { readonly type: 'stop' };

/** Worker to main thread: `ready` once listening, then one reply per request. */
export type RawReply =
  /** `revision`: the first revision a broadcast will carry is `revision + 1`. */
  | { readonly type: 'ready'; readonly url: string; readonly resourceId: string; readonly revision: number }
  /** `broadcastMs`: serialising the message and handing it to every socket, timed in the worker. */
  | { readonly type: 'broadcasted'; readonly revision: number; readonly broadcastMs: number; readonly sent: number }
  | { readonly type: 'stopped' };

/** The raw broadcast server in its worker thread, and the conversation with it. */
export class RawBroadcastThread {
  private stopping = false;

  private constructor(
    private readonly channel: WorkerChannel<RawReply, RawRequest>,
    readonly ready: Extract<RawReply, { type: 'ready' }>,
  ) {}

  static async start(template: RevisionTemplate): Promise<RawBroadcastThread> {
    const channel = new WorkerChannel<RawReply, RawRequest>(WORKER_FILE, { template } satisfies RawWorkerInput, 'raw ws broadcast worker');
    try {
      return new RawBroadcastThread(channel, await channel.next('ready'));
    } catch (error) {
      await channel.terminate();
      throw error;
    }
  }

  /** Broadcasts the next revision, carrying `text` in its op, to every subscribed client. */
  async broadcast(text: string): Promise<Extract<RawReply, { type: 'broadcasted' }>> {
    const reply = this.channel.next('broadcasted');
    this.channel.send({ type: 'broadcast', text });
    return reply;
  }

  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    try {
      if (!this.channel.failed) {
        const stopped = this.channel.next('stopped');
        this.channel.send({ type: 'stop' });
        await stopped;
      }
    } finally {
      await this.channel.terminate();
    }
  }
}
