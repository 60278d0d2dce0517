import type { Host } from '../host';
import type { RevisionEvent } from '../plugins/revision-event';
import { parseResourceUri, resourceUri } from './uris';

/** What a session is told: a subscribed resource has a new revision, or the list of resources changed. */
export interface SessionSink {
  resourceUpdated(uri: string): void;
  listChanged(): void;
}

/**
 * Resource subscriptions of every open session, fed by the host's revision events: one
 * `notifications/resources/updated` per revision of a subscribed resource, whoever committed it
 * (a person over HTTP, Main, another MCP client), and `list_changed` when a resource is created.
 */
export class Subscriptions {
  private readonly sessions = new Map<SessionSink, Set<string>>();
  private readonly unsubscribe: () => void;

  constructor(host: Host) {
    this.unsubscribe = host.resources.subscribe((event) => this.publish(event));
  }

  open(sink: SessionSink): void {
    this.sessions.set(sink, new Set());
  }

  drop(sink: SessionSink): void {
    this.sessions.delete(sink);
  }

  /** Subscribes to a resource's current URI (a revision URI never changes, so it names its resource). */
  subscribe(sink: SessionSink, uri: string): void {
    this.sessions.get(sink)?.add(parseResourceUri(uri).resourceId);
  }

  unsubscribeFrom(sink: SessionSink, uri: string): void {
    this.sessions.get(sink)?.delete(parseResourceUri(uri).resourceId);
  }

  close(): void {
    this.unsubscribe();
    this.sessions.clear();
  }

  private publish(event: RevisionEvent): void {
    for (const [sink, ids] of this.sessions) {
      if (event.action === 'create') sink.listChanged();
      if (ids.has(event.resourceId)) sink.resourceUpdated(resourceUri(event.resourceId));
    }
  }
}
