import type { RevisionEvent } from '../plugins/revision-event';
import { Emitter } from '../util/emitter';

/**
 * In-process fan-out of revision events to live subscribers, monitors and waiting agents, published
 * once per revision after its transaction is durable. A listener that throws is reported and stops
 * neither the others nor the commit.
 */
export class RevisionEvents extends Emitter<RevisionEvent> {
  publish(event: RevisionEvent): void {
    this.emit(event);
  }
}
