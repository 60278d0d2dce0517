import type { Json, Operator, RevisionAction } from '../store/records';

/** Published once per committed revision, after its transaction is durable. */
export interface RevisionEvent {
  readonly resourceId: string;
  readonly kind: string;
  readonly revision: number;
  readonly action: RevisionAction;
  readonly operator: Operator;
  readonly op: Json;
}

export type RevisionListener = (event: RevisionEvent) => void;
