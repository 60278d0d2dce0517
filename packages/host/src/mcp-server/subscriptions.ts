import type { Host } from '../host';
import type { RevisionEvent } from '../plugins/revision-event';
import { parseResourceUri, resourceUri } from './uris';

/** What a session is told: a subscribed resource has a new revision, or the list of resources changed. */
export interface SessionSink {
  resourceUpdated(uri: string): void;
  listChanged(): void;
}

/**
 * Resource subscriptions of every open session: `notifications/resources/updated` for each new
 * revision of a subscribed resource, whoever committed it, and `list_changed` when a resource is
 * created. Commits in this process arrive as the host's revision events at once; commits by another
 * process on the same workspace (`cowork serve` beside `cowork mcp serve`) are found by polling the
 * subscribed resources' head revisions (one indexed read each), every `pollMs`.
 */
export class Subscriptions {
  private readonly sessions = new Map<SessionSink, Set<string>>();
  /** The newest revision each subscribed resource was announced at. */
  private readonly announced = new Map<string, number>();
  private readonly unsubscribe: () => void;
  private readonly poll: NodeJS.Timeout | undefined;
  private polling = false;

  constructor(
    private readonly host: Host,
    options: { pollMs?: number; onError?: (error: unknown) => void } = {},
  ) {
    this.unsubscribe = host.resources.subscribe((event) => this.publish(event));
    const pollMs = options.pollMs ?? 1000;
    if (pollMs > 0) {
      this.poll = setInterval(() => void this.pollHeads().catch(options.onError ?? (() => undefined)), pollMs);
      this.poll.unref();
    }
  }

  open(sink: SessionSink): void {
    this.sessions.set(sink, new Set());
  }

  drop(sink: SessionSink): void {
    this.sessions.delete(sink);
    this.forgetUnwatched();
  }

  /** Subscribes to a resource at its current revision (a revision URI names its resource, which is what changes). */
  subscribe(sink: SessionSink, uri: string, currentRevision: number): void {
    const id = parseResourceUri(uri).resourceId;
    this.sessions.get(sink)?.add(id);
    this.announced.set(id, Math.max(this.announced.get(id) ?? -1, currentRevision));
  }

  unsubscribeFrom(sink: SessionSink, uri: string): void {
    this.sessions.get(sink)?.delete(parseResourceUri(uri).resourceId);
    this.forgetUnwatched();
  }

  close(): void {
    clearInterval(this.poll);
    this.unsubscribe();
    this.sessions.clear();
  }

  private publish(event: RevisionEvent): void {
    if (event.action === 'create') for (const sink of this.sessions.keys()) sink.listChanged();
    this.announce(event.resourceId, event.revision);
  }

  private async pollHeads(): Promise<void> {
    if (this.polling || this.announced.size === 0) return;
    this.polling = true;
    try {
      for (const id of [...this.announced.keys()]) {
        const head = await this.host.store.read((tx) => tx.resources.headRevision(id));
        if (head !== undefined) this.announce(id, head);
      }
    } finally {
      this.polling = false;
    }
  }

  /** Tells each subscriber once per revision newer than the last announced. */
  private announce(id: string, revision: number): void {
    const last = this.announced.get(id);
    if (last === undefined || revision <= last) return;
    this.announced.set(id, revision);
    for (const [sink, ids] of this.sessions) if (ids.has(id)) sink.resourceUpdated(resourceUri(id));
  }

  private forgetUnwatched(): void {
    const watched = new Set([...this.sessions.values()].flatMap((ids) => [...ids]));
    for (const id of this.announced.keys()) if (!watched.has(id)) this.announced.delete(id);
  }
}
