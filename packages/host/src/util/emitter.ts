/**
 * The host's one in-process fan-out (revision events, task events, the coordinator's records, jobs,
 * the Inbox, monitors). Listeners run in the order they subscribed; one that throws is reported to
 * `onListenerError` and stops neither the others nor the caller, whose event is already durable
 * when it is emitted.
 */
export class Emitter<Event> {
  private readonly listeners = new Set<(event: Event) => void>();

  constructor(private readonly onListenerError: (error: unknown) => void = () => undefined) {}

  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: (event: Event) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: Event): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }

  /** Whether anyone listens. */
  get empty(): boolean {
    return this.listeners.size === 0;
  }
}
