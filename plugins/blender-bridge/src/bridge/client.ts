import { connect, type Socket } from 'node:net';

/** An answer the bridge gave with `ok: false`: Blender is alive and refused the command. */
export class BridgeCommandError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'BridgeCommandError';
  }
}

/** The socket is gone (Blender died or was stopped) or a command got no answer in time. */
export class BridgeGoneError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BridgeGoneError';
  }
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * A client of bridge.py: JSON lines over a Unix socket, one request id per command. The bridge
 * answers a connection's commands in order, one at a time, so requests may be sent back to back.
 */
export class BridgeClient {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private buffer = '';
  private goneReason: string | undefined;

  private constructor(
    private readonly socket: Socket,
    readonly socketPath: string,
  ) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => this.receive(chunk));
    socket.on('error', (error) => this.fail(`the Blender bridge socket failed: ${error.message}`));
    socket.on('close', () => this.fail('the Blender bridge closed its socket (Blender stopped)'));
  }

  /** Connects once; rejects with BridgeGoneError when nothing listens at `socketPath`. */
  static connect(socketPath: string): Promise<BridgeClient> {
    return new Promise((resolve, reject) => {
      const socket = connect(socketPath);
      const onError = (error: Error): void => reject(new BridgeGoneError(`no Blender bridge at ${socketPath}: ${error.message}`));
      socket.once('error', onError);
      socket.once('connect', () => {
        socket.off('error', onError);
        resolve(new BridgeClient(socket, socketPath));
      });
    });
  }

  /** Whether the socket is gone; every later request rejects with BridgeGoneError. */
  get gone(): boolean {
    return this.goneReason !== undefined;
  }

  request<T>(cmd: string, params: Record<string, unknown> = {}, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<T> {
    if (this.goneReason !== undefined) return Promise.reject(new BridgeGoneError(this.goneReason));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new BridgeGoneError(`Blender did not answer ${cmd} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject, timer });
      this.socket.write(`${JSON.stringify({ ...params, id, cmd })}\n`);
    });
  }

  close(): void {
    this.fail('the client closed the connection');
    this.socket.destroy();
  }

  private receive(chunk: string): void {
    this.buffer += chunk;
    let newline: number;
    while ((newline = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      if (line.trim() !== '') this.answer(JSON.parse(line) as BridgeAnswer);
    }
  }

  private answer(message: BridgeAnswer): void {
    const pending = this.pending.get(message.id);
    if (!pending) return;
    this.pending.delete(message.id);
    clearTimeout(pending.timer);
    if (message.ok) pending.resolve(message.result);
    else pending.reject(new BridgeCommandError(message.error.code, message.error.message, message.error.details ?? {}));
  }

  private fail(reason: string): void {
    if (this.goneReason !== undefined) return;
    this.goneReason = reason;
    for (const pending of this.pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(new BridgeGoneError(reason));
    }
    this.pending.clear();
  }
}

type BridgeAnswer =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: { code: string; message: string; details?: Record<string, unknown> } };
