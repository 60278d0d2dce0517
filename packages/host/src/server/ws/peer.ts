import type { WebSocket } from 'ws';
import type { ServerMessage } from './messages';

/** Close codes the server uses. 4008: the client did not keep up (a private-use code, like 1008 "policy"). */
export const CLOSE_TOO_SLOW = 4008;
export const CLOSE_GOING_AWAY = 1001;
/** The credential the socket was opened with was revoked (an application close code). */
export const CLOSE_REVOKED = 4003;

export interface PeerLimits {
  /** Above this many bytes queued for the client, it is dropped instead of buffered without end. */
  readonly maxBufferedBytes: number;
  /** How long a dropped client gets to receive its close frame before the socket is destroyed. */
  readonly closeGraceMs: number;
}

/**
 * One live client's outgoing side. Sending never waits: a client that stops reading lets its
 * queue grow until `maxBufferedBytes`, and is then dropped (close code 4008), so one slow reader
 * cannot hold memory without bound or delay what everyone else receives.
 */
export class Peer {
  private dropped = false;

  constructor(
    readonly socket: WebSocket,
    private readonly limits: PeerLimits,
    private readonly onDrop: (reason: string) => void,
  ) {}

  get open(): boolean {
    return !this.dropped && this.socket.readyState === this.socket.OPEN;
  }

  /**
   * Sends a text frame unless the client is too far behind (then it is dropped). False when not
   * sent. Bytes (UTF-8 JSON encoded once for many clients) go out as a text frame without another copy.
   */
  sendText(text: string | Buffer): boolean {
    if (!this.sendable()) return false;
    if (typeof text === 'string') this.socket.send(text);
    else this.socket.send(text, { binary: false });
    return true;
  }

  send(message: ServerMessage): boolean {
    return this.sendText(JSON.stringify(message));
  }

  /**
   * Sends a frame and resolves once it was handed to the operating system (or the socket closed):
   * catch-up sends history page by page at the pace the client reads it.
   */
  sendPaced(text: string): Promise<boolean> {
    if (!this.sendable()) return Promise.resolve(false);
    return new Promise((resolve) => this.socket.send(text, (error) => resolve(!error)));
  }

  drop(reason: string): void {
    if (this.dropped) return;
    this.dropped = true;
    this.onDrop(reason);
    // The close frame queues behind what the client has not read; if it never reads, destroy it.
    this.socket.close(CLOSE_TOO_SLOW, reason.slice(0, 120));
    setTimeout(() => this.socket.terminate(), this.limits.closeGraceMs).unref();
  }

  private sendable(): boolean {
    if (!this.open) return false;
    if (this.socket.bufferedAmount > this.limits.maxBufferedBytes) {
      this.drop(`too slow: over ${this.limits.maxBufferedBytes} bytes waiting to be read`);
      return false;
    }
    return true;
  }
}
