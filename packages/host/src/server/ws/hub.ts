import type { WebSocket } from 'ws';
import type { Host } from '../../host';
import type { RevisionEvent } from '../../plugins/revision-event';
import type { TaskEvents } from '../task-events';
import { Connection } from './connection';
import { MessageParser, revisionMessage } from './messages';
import { CLOSE_GOING_AWAY, CLOSE_REVOKED } from './peer';
import type { Principal } from '../../identity/principal';
import type { UserDirectory } from '../../identity/user-directory';
import type { Operator } from '../../store/records';
import type { ResourceSubscription } from './resource-subscription';

export interface HubOptions {
  /** A client with more than this many bytes unread is dropped (default 4 MiB, at least one large op). */
  readonly maxBufferedBytes?: number;
  /** Revisions per history read while a client catches up (default 500). */
  readonly pageSize?: number;
  /** How often to look for commits made by other processes, which publish no events here (default 1000 ms; 0: never). */
  readonly pollMs?: number;
  /** Ping interval; a client that misses a pong by the next ping is cut off (default 30 s; 0: never). */
  readonly heartbeatMs?: number;
  readonly closeGraceMs?: number;
  readonly maxSubscriptions?: number;
}

/** Who may keep a socket open, and whom an owner's commit acts as when it names no one. */
export interface HubAccess {
  readonly users: UserDirectory;
  readonly defaultOperator: Operator;
}

/**
 * The live side of the server: every WebSocket client, their resource subscriptions, and one
 * listener on the host's revision events that fans each event out, serialised once, to the
 * subscribers of that resource. Fan-out never waits on a client (see `Peer`).
 */
export class LiveHub {
  private readonly connections = new Set<Connection>();
  private readonly byResource = new Map<string, Set<ResourceSubscription>>();
  /** Revision events queued to go out, per resource (see onRevision). */
  private readonly fanningOut = new Map<string, number>();
  private readonly parser = new MessageParser();
  private readonly stopListening: () => void;
  private readonly timers: NodeJS.Timeout[] = [];
  private polling = false;
  /** A wake-up arrived during a poll: poll again when it ends. */
  private again = false;
  private readonly stopWatching: () => void;

  constructor(
    private readonly host: Host,
    private readonly taskEvents: TaskEvents,
    private readonly access: HubAccess,
    private readonly options: HubOptions = {},
  ) {
    this.stopListening = host.resources.subscribe((event) => this.onRevision(event));
    const pollMs = options.pollMs ?? 1000;
    if (pollMs > 0) this.timers.push(setInterval(() => void this.poll(), pollMs).unref());
    const heartbeatMs = options.heartbeatMs ?? 30_000;
    if (heartbeatMs > 0) this.timers.push(setInterval(() => this.heartbeat(), heartbeatMs).unref());
    // Another host's commit (PostgreSQL's NOTIFY) catches subscribers up at once; the poll stays the fallback.
    this.stopWatching = host.store.watchCommits(() => void this.poll());
  }

  /** Takes over an upgraded socket, opened with `principal`'s credential. */
  accept(socket: WebSocket, principal: Principal): void {
    const connection = new Connection(socket, {
      host: this.host,
      principal,
      defaultOperator: this.access.defaultOperator,
      people: this.access.users,
      taskEvents: this.taskEvents,
      parser: this.parser,
      limits: {
        maxBufferedBytes: this.options.maxBufferedBytes ?? 4 * 1024 * 1024,
        closeGraceMs: this.options.closeGraceMs ?? 1000,
        pageSize: this.options.pageSize ?? 500,
        maxSubscriptions: this.options.maxSubscriptions ?? 1000,
      },
      register: (sub) => this.register(sub),
      unregister: (sub) => this.unregister(sub),
      closed: (c) => this.connections.delete(c),
    });
    this.connections.add(connection);
  }

  /** Closes every socket of a person whose token was revoked. */
  revoke(name: string): void {
    for (const connection of [...this.connections]) {
      const { principal } = connection;
      if (principal.kind !== 'person' || principal.name !== name) continue;
      connection.dispose();
      connection.peer.socket.close(CLOSE_REVOKED, 'credential revoked');
    }
  }

  /** How many clients are connected (for tests and health). */
  get size(): number {
    return this.connections.size;
  }

  close(): void {
    this.stopListening();
    this.stopWatching();
    for (const timer of this.timers) clearInterval(timer);
    for (const connection of [...this.connections]) {
      connection.dispose();
      connection.peer.socket.close(CLOSE_GOING_AWAY, 'server shutting down');
    }
  }

  /**
   * A revision event, published once its commit is durable: serialised once, to bytes, and sent to
   * the resource's subscribers on the next turn of the event loop, so the commit that made it
   * answers its caller without waiting for a thousand sends. Events keep their order (setImmediate
   * runs callbacks in the order they were queued); a subscriber skips what its catch-up already sent.
   */
  private onRevision(event: RevisionEvent): void {
    if (!this.byResource.has(event.resourceId)) return;
    const frame = Buffer.from(JSON.stringify(revisionMessage(event)));
    this.fanningOut.set(event.resourceId, (this.fanningOut.get(event.resourceId) ?? 0) + 1);
    setImmediate(() => {
      const left = (this.fanningOut.get(event.resourceId) ?? 1) - 1;
      if (left === 0) this.fanningOut.delete(event.resourceId);
      else this.fanningOut.set(event.resourceId, left);
      for (const sub of this.byResource.get(event.resourceId) ?? []) sub.onLive(event, frame);
    });
  }

  private register(sub: ResourceSubscription): void {
    let subs = this.byResource.get(sub.resourceId);
    if (!subs) this.byResource.set(sub.resourceId, (subs = new Set()));
    subs.add(sub);
  }

  private unregister(sub: ResourceSubscription): void {
    const subs = this.byResource.get(sub.resourceId);
    subs?.delete(sub);
    if (subs?.size === 0) this.byResource.delete(sub.resourceId);
  }

  /**
   * Asks history whether live subscribers are behind; one small read per resource and distinct
   * position (usually one), not one per client.
   */
  private async poll(): Promise<void> {
    if (this.polling) {
      this.again = true;
      return;
    }
    this.polling = true;
    this.again = false;
    let skipped = false;
    try {
      await this.closeRevoked();
      for (const [resourceId, subs] of [...this.byResource]) {
        // A revision of this process still on its way to the subscribers is not theirs to catch up on.
        if (this.fanningOut.has(resourceId)) {
          skipped = true;
          continue;
        }
        const positions = new Set([...subs].filter((s) => s.live).map((s) => s.revision));
        for (const position of positions) {
          const newer = await this.host.resources.history(resourceId, { after: position, limit: 1 });
          if (newer.length === 0) continue;
          for (const sub of subs) if (sub.live && sub.revision === position) sub.behind();
        }
      }
    } catch {
      // A resource that vanished or a busy store: the next poll tries again.
    } finally {
      this.polling = false;
      // A wake-up must not be lost to a resource skipped for its fan-out: look again once that ran.
      if (this.again || skipped) setImmediate(() => void this.poll());
    }
  }

  /** A token revoked by another process (`cowork users revoke`) closes its sockets here within a poll. */
  private async closeRevoked(): Promise<void> {
    const names = new Set<string>();
    for (const { principal } of this.connections) if (principal.kind === 'person') names.add(principal.name);
    for (const name of names) if (!(await this.access.users.stillActive(name))) this.revoke(name);
  }

  private heartbeat(): void {
    for (const connection of this.connections) {
      if (!connection.alive) {
        connection.peer.socket.terminate();
        continue;
      }
      connection.alive = false;
      connection.peer.socket.ping();
    }
  }
}
