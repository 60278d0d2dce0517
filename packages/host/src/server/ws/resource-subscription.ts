import { toCoworkError } from '../../errors';
import type { ResourceApi } from '../../plugins/resource-api';
import type { RevisionEvent } from '../../plugins/revision-event';
import { revisionMessage } from './messages';
import type { Peer } from './peer';

/**
 * One client's subscription to one resource: every revision after `sinceRevision`, each exactly
 * once, in order, with no gaps.
 *
 * How that holds: the subscription is registered for live events before it reads anything. While
 * it catches up from history (page by page, paced to the client), a live event only marks it
 * dirty; when a history page comes back short and nothing arrived meanwhile, it is current and
 * goes live. A live event is sent only if it is exactly the next revision; an older one is a
 * duplicate of what history already sent, and a newer one means something was missed (a commit
 * by another process, which publishes no event here) and sends it back to history. History is
 * the source of truth; live events are only a fast path.
 */
export class ResourceSubscription {
  private state: 'catching_up' | 'live' | 'closed' = 'catching_up';
  private dirty = false;

  constructor(
    readonly resourceId: string,
    private lastSent: number,
    private readonly deps: { peer: Peer; resources: ResourceApi; pageSize: number; onFailed: (sub: ResourceSubscription) => void },
  ) {}

  /** The newest revision this client has been sent. */
  get revision(): number {
    return this.lastSent;
  }

  get live(): boolean {
    return this.state === 'live';
  }

  /** Moves the starting point before `start` (a subscription with no `sinceRevision` begins at the current revision). */
  skipTo(revision: number): void {
    if (this.state === 'catching_up') this.lastSent = Math.max(this.lastSent, revision);
  }

  /** Starts the first catch-up; call after registering for live events. */
  start(): void {
    void this.catchUp();
  }

  /** A live revision event; `frame` is its message, serialised once for every subscriber. */
  onLive(event: RevisionEvent, frame: Buffer): void {
    if (this.state === 'closed') return;
    if (this.state === 'catching_up') {
      this.dirty = true;
      return;
    }
    if (event.revision <= this.lastSent) return;
    if (event.revision === this.lastSent + 1) {
      if (this.deps.peer.sendText(frame)) this.lastSent = event.revision;
      return;
    }
    void this.catchUp();
  }

  /** The resource has a revision newer than what was sent (the hub polls for other processes' commits). */
  behind(): void {
    if (this.state === 'live') void this.catchUp();
  }

  close(): void {
    this.state = 'closed';
  }

  private async catchUp(): Promise<void> {
    this.state = 'catching_up';
    try {
      for (;;) {
        this.dirty = false;
        const page = await this.deps.resources.history(this.resourceId, { after: this.lastSent, limit: this.deps.pageSize });
        if (this.isClosed()) return;
        let paced = Promise.resolve(true);
        for (const record of page) {
          // History is contiguous, but a concurrent catch-up could have moved on: never resend.
          if (record.revision !== this.lastSent + 1) continue;
          paced = this.deps.peer.sendPaced(JSON.stringify(revisionMessage(record)));
          this.lastSent = record.revision;
        }
        if (!(await paced) || this.isClosed()) return this.closeIfPeerGone();
        if (page.length < this.deps.pageSize && !this.dirty) {
          this.state = 'live';
          return;
        }
      }
    } catch (error) {
      if (this.isClosed()) return;
      this.state = 'closed';
      this.deps.peer.send({ type: 'error', error: { ...toCoworkError(error).toJSON().error, resourceId: this.resourceId } });
      this.deps.onFailed(this);
    }
  }

  private isClosed(): boolean {
    return this.state === 'closed';
  }

  private closeIfPeerGone(): void {
    if (!this.deps.peer.open) this.state = 'closed';
  }
}
