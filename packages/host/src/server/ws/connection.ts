import type { RawData, WebSocket } from 'ws';
import { CoworkError, toCoworkError } from '../../errors';
import type { Host } from '../../host';
import type { Operator } from '../../store/records';
import type { TaskEvents } from '../task-events';
import { currentTask } from '../../agents/task-view';
import { MessageParser, parseFrame, requestIdOf, type ClientMessage } from './messages';
import { Peer, type PeerLimits } from './peer';
import { ResourceSubscription } from './resource-subscription';
import { selectingPerson, writingOperator, type People, type Principal } from '../../identity/principal';

/** What a connection needs from the hub. */
export interface ConnectionDeps {
  readonly host: Host;
  readonly taskEvents: TaskEvents;
  readonly parser: MessageParser;
  readonly limits: PeerLimits & { readonly pageSize: number; readonly maxSubscriptions: number };
  /** Whose credential opened the socket: its commits act as that person (the owner names its operator). */
  readonly principal: Principal;
  /** The operator of an owner's commit that names none. */
  readonly defaultOperator: Operator;
  /** The workspace's people, whom the owner may not act as. */
  readonly people: People;
  register(sub: ResourceSubscription): void;
  unregister(sub: ResourceSubscription): void;
  closed(connection: Connection): void;
}

/**
 * One WebSocket client. Its messages are handled one at a time, in the order sent, so a
 * `subscribe` followed by an `unsubscribe` cannot be reordered; a catch-up runs on its own and
 * does not hold up the next message.
 */
export class Connection {
  readonly peer: Peer;
  alive = true;
  /** The principal the socket acts for (the hub closes a revoked person's sockets). */
  get principal(): Principal {
    return this.deps.principal;
  }
  private readonly subscriptions = new Map<string, ResourceSubscription>();
  private readonly taskSubscriptions = new Map<string, () => void>();
  private queue: Promise<void> = Promise.resolve();

  constructor(
    socket: WebSocket,
    private readonly deps: ConnectionDeps,
  ) {
    this.peer = new Peer(socket, deps.limits, () => this.dispose());
    socket.on('message', (data: RawData, isBinary: boolean) => {
      const text = isBinary ? undefined : rawText(data);
      this.queue = this.queue.then(() => this.handle(text));
    });
    socket.on('pong', () => (this.alive = true));
    socket.on('close', () => this.dispose());
  }

  dispose(): void {
    for (const sub of this.subscriptions.values()) this.unsubscribe(sub);
    for (const stop of this.taskSubscriptions.values()) stop();
    this.taskSubscriptions.clear();
    this.deps.closed(this);
  }

  private async handle(text: string | undefined): Promise<void> {
    if (!this.peer.open) return;
    let requestId: string | undefined;
    try {
      if (text === undefined) throw new CoworkError('invalid_input', 'send JSON text frames, not binary ones');
      // Parsed once (a commit's op can be megabytes): the requestId comes from the same value.
      const frame = parseFrame(text);
      requestId = requestIdOf(frame);
      await this.dispatch(this.deps.parser.check(frame));
    } catch (error) {
      this.peer.send({ type: 'error', ...(requestId ? { requestId } : {}), error: toCoworkError(error).toJSON().error });
    }
  }

  private async dispatch(message: ClientMessage): Promise<void> {
    const requestId = message.requestId ? { requestId: message.requestId } : {};
    switch (message.type) {
      case 'subscribe':
        return this.subscribe(message.resourceId, message.sinceRevision, requestId);
      case 'unsubscribe': {
        const sub = this.subscriptions.get(message.resourceId);
        if (sub) this.unsubscribe(sub);
        this.peer.send({ type: 'unsubscribed', ...requestId, resourceId: message.resourceId });
        return;
      }
      case 'commit': {
        const { resourceId, baseRevision, op, idempotencyKey } = message;
        const operator = await writingOperator(this.deps.principal, message.operator, this.deps.defaultOperator, this.deps.people);
        const result = await this.deps.host.resources.commit(resourceId, { baseRevision, op, operator, idempotencyKey });
        this.peer.send({ type: 'committed', ...requestId, resourceId, revision: result.revision });
        return;
      }
      case 'select': {
        const person = await selectingPerson(this.deps.principal, message.operator, this.deps.defaultOperator, this.deps.people);
        const saved = await this.deps.host.resources.setSelection(message.resourceId, person, message.selection);
        this.peer.send({ type: 'selected', ...requestId, resourceId: saved.resourceId, person: saved.person, selection: saved.selection, updatedAt: saved.updatedAt });
        return;
      }
      case 'subscribe_task':
        return this.subscribeTask(message.taskId, requestId);
      case 'decide_approval': {
        const operator = await writingOperator(this.deps.principal, undefined, this.deps.defaultOperator, this.deps.people);
        const approval = await this.deps.host.approvals.decide(message.approvalId, message.decision === 'approve' ? 'approved' : 'denied', operator, message.reason);
        this.peer.send({ type: 'approval_decided', ...requestId, approval });
        return;
      }
      case 'unsubscribe_task':
        this.taskSubscriptions.get(message.taskId)?.();
        this.taskSubscriptions.delete(message.taskId);
        this.peer.send({ type: 'task_unsubscribed', ...requestId, taskId: message.taskId });
        return;
    }
  }

  private async subscribe(resourceId: string, since: number | undefined, requestId: { requestId?: string }): Promise<void> {
    const existing = this.subscriptions.get(resourceId);
    if (existing) this.unsubscribe(existing);
    else if (this.subscriptions.size >= this.deps.limits.maxSubscriptions) {
      throw new CoworkError('invalid_input', `at most ${this.deps.limits.maxSubscriptions} resource subscriptions per connection`);
    }
    // Registered for live events before anything is read, so nothing committed from here on is missed.
    const sub = new ResourceSubscription(resourceId, since ?? -1, {
      peer: this.peer,
      resources: this.deps.host.resources,
      pageSize: this.deps.limits.pageSize,
      onFailed: (failed) => this.unsubscribe(failed),
    });
    this.subscriptions.set(resourceId, sub);
    this.deps.register(sub);
    try {
      const { revision } = await this.deps.host.resources.get(resourceId);
      const sinceRevision = since ?? revision;
      if (sinceRevision > revision) {
        throw new CoworkError('invalid_input', `sinceRevision ${sinceRevision} is past the current revision ${revision}`, { currentRevision: revision });
      }
      if (since === undefined) sub.skipTo(revision);
      this.peer.send({ type: 'subscribed', ...requestId, resourceId, sinceRevision, currentRevision: revision });
      sub.start();
    } catch (error) {
      this.unsubscribe(sub);
      throw error;
    }
  }

  private unsubscribe(sub: ResourceSubscription): void {
    sub.close();
    this.deps.unregister(sub);
    if (this.subscriptions.get(sub.resourceId) === sub) this.subscriptions.delete(sub.resourceId);
  }

  private async subscribeTask(taskId: string, requestId: { requestId?: string }): Promise<void> {
    const task = await currentTask(this.deps.host, taskId);
    this.taskSubscriptions.get(taskId)?.();
    this.taskSubscriptions.set(
      taskId,
      this.deps.taskEvents.subscribe(taskId, (event) => void this.peer.send({ type: 'task_event', taskId, event })),
    );
    this.peer.send({ type: 'task_subscribed', ...requestId, taskId, status: task.status });
  }
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8');
}
