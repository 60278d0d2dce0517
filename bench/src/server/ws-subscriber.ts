import WebSocket from 'ws';
import { epochNow } from '../clock';
import type { DeliveryTally } from './delivery-tally';

interface ServerFrame {
  readonly type: string;
  readonly revision?: number;
  readonly op?: { readonly text?: string };
  readonly error?: unknown;
}

/**
 * One live client: an authenticated WebSocket subscribed to one resource. For every revision it
 * receives it records the delivery latency (now minus the send time the commit's text carries,
 * taken after parsing the frame, as a client would need to) and checks that revisions arrive
 * each exactly once, in order.
 */
export class Subscriber {
  private expected = 0;
  /** The raw text of the last revision frame received, so a run can show (and copy) what the server sends. */
  lastRevisionFrame: string | undefined;
  private subscribed: { resolve: () => void; reject: (error: Error) => void } | undefined;

  private constructor(
    private readonly socket: WebSocket,
    private readonly tally: DeliveryTally,
  ) {
    socket.on('message', (data) => this.onFrame(String(data)));
    socket.on('close', (code) => this.subscribed?.reject(new Error(`socket closed (code ${code}) before subscribing`)));
  }

  static connect(wsUrl: string, token: string, tally: DeliveryTally): Promise<Subscriber> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(wsUrl, { headers: { authorization: `Bearer ${token}` }, perMessageDeflate: false });
      socket.once('open', () => resolve(new Subscriber(socket, tally)));
      socket.once('unexpected-response', (_request, response) => reject(new Error(`upgrade refused: ${response.statusCode}`)));
      socket.once('error', reject);
    });
  }

  /** Subscribes from `sinceRevision` (so the next revision expected is the one after it); resolves once the server confirms. */
  subscribe(resourceId: string, sinceRevision: number): Promise<void> {
    this.expected = sinceRevision + 1;
    return new Promise((resolve, reject) => {
      this.subscribed = { resolve, reject };
      this.socket.send(JSON.stringify({ type: 'subscribe', resourceId, sinceRevision }));
    });
  }

  close(): void {
    this.socket.close();
  }

  private onFrame(text: string): void {
    const frame = JSON.parse(text) as ServerFrame;
    const receivedAt = epochNow();
    if (frame.type === 'revision' && frame.revision !== undefined) {
      if (frame.revision !== this.expected) this.tally.gaps++;
      this.expected = frame.revision + 1;
      this.lastRevisionFrame = text;
      this.tally.record(frame.revision, receivedAt - Number(frame.op?.text));
    } else if (frame.type === 'subscribed') {
      this.subscribed?.resolve();
      this.subscribed = undefined;
    } else if (frame.type === 'error') {
      const error = new Error(`server error: ${JSON.stringify(frame.error)}`);
      if (this.subscribed) this.subscribed.reject(error);
      else throw error;
    }
  }
}
