import type { RevisionEvent, RevisionListener } from '../plugins/revision-event';

/**
 * In-process fan-out of revision events to live subscribers, monitors and waiting agents.
 * A listener that throws is reported and does not stop the others or the commit.
 */
export class RevisionEvents {
  private readonly listeners = new Set<RevisionListener>();

  constructor(private readonly onListenerError: (error: unknown) => void = () => undefined) {}

  subscribe(listener: RevisionListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(event: RevisionEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }
}
