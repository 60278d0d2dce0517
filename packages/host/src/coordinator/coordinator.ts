import Ajv, { type ValidateFunction } from 'ajv';
import { CoworkError } from '../errors';
import { schemaProblems } from '../util/json-schema';
import type { EventRecord, Json } from '../store/records';
import { IdempotencyClaim } from '../store/idempotency';
import type { Store, StoreTx } from '../store/store';
import { Emitter } from '../util/emitter';
import { Mutex } from '../util/mutex';
import { COORDINATOR_EVENTS, isCoordinatorEventType, type CoordinatorEvent, type CoordinatorEventInput } from './events';
import { applyEvent, planEvent } from './fold';
import { emptyState, type CoordinatorState } from './state';

export type CoordinatorListener = (event: CoordinatorEvent & { seq: number }) => void;

/**
 * The coordinator runtime's record keeper: appends events to the durable log and keeps the state
 * that is their fold. An event is checked against the current state before it is appended, so the
 * log never holds an event the fold would refuse. Events appended by another process on the same
 * workspace are folded in before each append, on `refresh`, and (PostgreSQL) when announced (`follow`).
 */
let eventValidators: Map<string, ValidateFunction> | undefined;

export class Coordinator {
  private readonly state: CoordinatorState = emptyState();
  private readonly mutex = new Mutex();
  private readonly records = new Emitter<CoordinatorEvent & { seq: number }>();

  private constructor(
    private readonly store: Store,
    private readonly now: () => string,
  ) {}

  /** The events' validators, compiled once per process (every host's coordinator shares them). */
  private get validators(): Map<string, ValidateFunction> {
    if (!eventValidators) {
      const ajv = new Ajv({ allErrors: true, strict: false });
      eventValidators = new Map(Object.entries(COORDINATOR_EVENTS).map(([type, schema]) => [type, ajv.compile(schema)]));
    }
    return eventValidators;
  }

  /** Opens the coordinator of a store, replaying its whole log. */
  static async open(store: Store, now: () => string = () => new Date().toISOString()): Promise<Coordinator> {
    const coordinator = new Coordinator(store, now);
    await coordinator.refresh();
    return coordinator;
  }

  /** The current state. Treat it as read-only; it changes as events are recorded. */
  get current(): Readonly<CoordinatorState> {
    return this.state;
  }

  /** Checks, appends durably, then folds one event. Returns the stored event with its sequence number. */
  async record(input: CoordinatorEventInput): Promise<CoordinatorEvent & { seq: number }> {
    const { event } = await this.recordOnce(input);
    return event;
  }

  /**
   * Like `record`, but at most once per idempotency key: the key is stored in the same transaction
   * as the event, and a repeated key returns the first event's seq without appending
   * (`replayed: true`). This is what keeps a re-run turn from delegating twice.
   */
  async recordOnce(
    input: CoordinatorEventInput,
    idempotencyKey?: string,
  ): Promise<{ event: CoordinatorEvent & { seq: number }; replayed: boolean }> {
    this.checkShape(input);
    return this.mutex.run(async () => {
      const event = { type: input.type, at: this.now(), data: input.data } as CoordinatorEvent;
      const claim = IdempotencyClaim.of('coordinator event', idempotencyKey, { type: input.type, data: input.data });
      const outcome = await this.store.transaction(async (tx) => {
        await this.catchUp(tx);
        const prior = await claim?.prior(tx);
        if (typeof prior === 'number') {
          const [stored] = await tx.events.list(prior - 1, 1);
          return { kind: 'replayed' as const, event: { ...toCoordinatorEvent(stored!), seq: prior } as CoordinatorEvent & { seq: number } };
        }
        const apply = planEvent(this.state, event);
        const seq = await tx.events.append({ type: event.type, at: event.at, data: event.data as Json });
        await claim?.record(tx, seq, event.at);
        return { kind: 'appended' as const, seq, apply };
      });
      if (outcome.kind === 'replayed') return { event: outcome.event, replayed: true };
      // Only now is the event durable; a failed transaction leaves the state as it was.
      outcome.apply();
      const recorded = { ...event, seq: outcome.seq };
      this.notify(recorded);
      return { event: recorded, replayed: false };
    });
  }

  /** Folds in events appended since the last look (by this or another process). */
  async refresh(): Promise<void> {
    await this.mutex.run(() => this.store.read((tx) => this.catchUp(tx)));
  }

  subscribe(listener: CoordinatorListener): () => void {
    return this.records.subscribe(listener);
  }

  /**
   * Folds in events other hosts append as soon as the store announces them (PostgreSQL), so this
   * host's listeners get their records in order at once rather than at its own next append or
   * refresh. A failed read is left to those: they fold in whatever is missing. Returns the stop.
   */
  follow(): () => void {
    let queued = false;
    return this.store.watchAppends('events', (seq) => {
      if (queued || (seq !== undefined && seq <= this.state.lastSeq)) return;
      queued = true;
      this.mutex
        .run(() => {
          queued = false;
          return this.store.read((tx) => this.catchUp(tx));
        })
        .catch(() => undefined);
    });
  }

  private async catchUp(tx: StoreTx): Promise<void> {
    const events = await tx.events.list(this.state.lastSeq);
    for (const record of events) {
      if (record.seq !== this.state.lastSeq + 1) {
        throw new CoworkError('store_failed', `event log has a gap before seq ${record.seq}`, { seq: record.seq });
      }
      const event = toCoordinatorEvent(record);
      applyEvent(this.state, event);
      this.notify({ ...event, seq: record.seq });
    }
  }

  private checkShape(input: CoordinatorEventInput): void {
    const type = (input as { type?: unknown })?.type;
    if (typeof type !== 'string' || !isCoordinatorEventType(type)) {
      throw new CoworkError('invalid_input', `unknown coordinator event type ${JSON.stringify(type)}`, {
        knownTypes: Object.keys(COORDINATOR_EVENTS),
      });
    }
    const validate = this.validators.get(type)!;
    if (!validate(input.data)) {
      throw new CoworkError('invalid_input', `invalid data for ${type}`, { type, problems: schemaProblems(validate) });
    }
  }

  private notify(event: CoordinatorEvent & { seq: number }): void {
    this.records.emit(event);
  }
}

function toCoordinatorEvent(record: EventRecord): CoordinatorEvent {
  return { type: record.type, at: record.at, data: record.data } as CoordinatorEvent;
}
