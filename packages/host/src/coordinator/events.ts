import { Type, type Static, type TSchema } from '@sinclair/typebox';

/**
 * The coordinator's events, each defined once with its schema: the same definition types the
 * fold, validates appends, and (later) documents the wire format.
 */

const Id = Type.String({ minLength: 1, maxLength: 200 });
const Outcome = Type.Union([Type.Literal('done'), Type.Literal('failed'), Type.Literal('cancelled')]);

export const COORDINATOR_EVENTS = {
  'task.created': Type.Object(
    {
      taskId: Id,
      request: Type.String({ maxLength: 1_000_000 }),
      parentTaskId: Type.Optional(Id),
      /** Token budget of the whole task (all its agents). */
      maxTokens: Type.Optional(Type.Integer({ minimum: 1 })),
    },
    { additionalProperties: false },
  ),
  'task.started': Type.Object({ taskId: Id }, { additionalProperties: false }),
  'task.waiting': Type.Object({ taskId: Id, reason: Type.String() }, { additionalProperties: false }),
  'task.resumed': Type.Object({ taskId: Id }, { additionalProperties: false }),
  'task.finished': Type.Object(
    { taskId: Id, outcome: Outcome, summary: Type.Optional(Type.String()) },
    { additionalProperties: false },
  ),
  'assignment.requested': Type.Object(
    {
      assignmentId: Id,
      taskId: Id,
      agentId: Id,
      mode: Type.Union([Type.Literal('sync'), Type.Literal('async')]),
      assignment: Type.String({ maxLength: 1_000_000 }),
      grants: Type.Optional(Type.Array(Type.String())),
      /** The bounded slice of background Main chose to hand over. */
      background: Type.Optional(Type.String({ maxLength: 100_000 })),
      maxTokens: Type.Optional(Type.Integer({ minimum: 1 })),
      timeoutMs: Type.Optional(Type.Integer({ minimum: 1 })),
    },
    { additionalProperties: false },
  ),
  'assignment.started': Type.Object({ assignmentId: Id }, { additionalProperties: false }),
  'assignment.updated': Type.Object({ assignmentId: Id, note: Type.String() }, { additionalProperties: false }),
  'assignment.waiting': Type.Object({ assignmentId: Id, reason: Type.String() }, { additionalProperties: false }),
  'assignment.resumed': Type.Object({ assignmentId: Id }, { additionalProperties: false }),
  'assignment.finished': Type.Object(
    { assignmentId: Id, outcome: Outcome, result: Type.Optional(Type.Unknown()) },
    { additionalProperties: false },
  ),
  'message.sent': Type.Object(
    { messageId: Id, taskId: Id, from: Id, to: Id, body: Type.String({ maxLength: 1_000_000 }) },
    { additionalProperties: false },
  ),
  /** A tool tried to reach past its agent's grants and was refused (the attempt is kept for people to see). */
  'access.denied': Type.Object(
    {
      taskId: Id,
      agentId: Id,
      operator: Type.String(),
      access: Type.String(),
      action: Type.String(),
      resourceId: Type.Optional(Id),
      kind: Type.Optional(Type.String()),
    },
    { additionalProperties: false },
  ),
} satisfies Record<string, TSchema>;

export type CoordinatorEventType = keyof typeof COORDINATOR_EVENTS;

export type CoordinatorEventData<T extends CoordinatorEventType> = Static<(typeof COORDINATOR_EVENTS)[T]>;

/** An event as the coordinator appends it: its type, its data, and when it happened. */
export type CoordinatorEvent = {
  [T in CoordinatorEventType]: { readonly type: T; readonly at: string; readonly data: CoordinatorEventData<T> };
}[CoordinatorEventType];

/** An event before the coordinator stamps it with the time. */
export type CoordinatorEventInput = {
  [T in CoordinatorEventType]: { readonly type: T; readonly data: CoordinatorEventData<T> };
}[CoordinatorEventType];

export function isCoordinatorEventType(type: string): type is CoordinatorEventType {
  return Object.prototype.hasOwnProperty.call(COORDINATOR_EVENTS, type);
}
