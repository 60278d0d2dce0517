import WebSocket from 'ws';

/**
 * A WebSocket client of the host's live protocol for tests (the host's and plugin authors'): it
 * records every message and can wait for one matching a predicate. See src/server/ws/messages.ts.
 */
/** A server message as the client received it. */
export type LiveMessage = Record<string, unknown> & { type: string };

export class LiveTestClient {
  readonly messages: LiveMessage[] = [];
  closed: { code: number; reason: string } | undefined;
  private waiters: { test: (m: LiveMessage[]) => boolean; resolve: () => void }[] = [];
  private closeWaiters: (() => void)[] = [];

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.messages.push(JSON.parse(String(data)) as LiveMessage);
      this.check();
    });
    socket.on('close', (code, reason) => {
      this.closed = { code, reason: String(reason) };
      for (const resolve of this.closeWaiters) resolve();
      this.check();
    });
  }

  /** Connects to `ws://host:port/ws`; pass the server's token as `{ authorization: 'Bearer <token>' }`. */
  static connect(url: string, headers: Record<string, string>): Promise<LiveTestClient> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { headers });
      socket.once('open', () => resolve(new LiveTestClient(socket)));
      socket.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
      socket.once('error', reject);
    });
  }

  send(message: Record<string, unknown>): void {
    this.socket.send(JSON.stringify(message));
  }

  /** Resolves once the recorded messages satisfy `test` (checked on every message). */
  until(test: (messages: LiveMessage[]) => boolean, what = 'messages', timeoutMs = 20_000): Promise<void> {
    if (test(this.messages)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}; got ${JSON.stringify(this.messages.slice(-3))}`)), timeoutMs);
      this.waiters.push({ test, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }

  /** The first message of a type (and requestId, when given), once it arrives. */
  async next(type: string, requestId?: string): Promise<LiveMessage> {
    const match = (m: LiveMessage): boolean => m.type === type && (requestId === undefined || m.requestId === requestId);
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

