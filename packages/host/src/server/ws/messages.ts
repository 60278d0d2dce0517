import { Type, type Static, type TSchema } from '@sinclair/typebox';
import Ajv, { type ValidateFunction } from 'ajv';
import { CoworkError, type ErrorCode } from '../../errors';
import type { RevisionEvent } from '../../plugins/revision-event';
import type { RevisionRecord } from '../../store/records';
import { AnyJson, Id, IdempotencyKey, OperatorSchema, Revision } from '../schemas';
import type { TaskEvent } from '../task-events';

/**
 * The WebSocket protocol, each message defined once. Clients send JSON text frames; every reply
 * that answers a message carries the message's `requestId` when it had one.
 */

const RequestId = Type.Optional(Type.String({ minLength: 1, maxLength: 200 }));

export const CLIENT_MESSAGES = {
  /** Every revision after `sinceRevision` in order (default: only new ones), then each new one as it is committed. */
  subscribe: Type.Object(
    { type: Type.Literal('subscribe'), resourceId: Id, sinceRevision: Type.Optional(Type.Integer({ minimum: -1 })), requestId: RequestId },
    { additionalProperties: false },
  ),
  unsubscribe: Type.Object({ type: Type.Literal('unsubscribe'), resourceId: Id, requestId: RequestId }, { additionalProperties: false }),
  /** The same commit as POST /api/resources/:id/commits, with the same `revision_conflict`. */
  commit: Type.Object(
    { type: Type.Literal('commit'), resourceId: Id, baseRevision: Revision, op: AnyJson, operator: Type.Optional(OperatorSchema), idempotencyKey: Type.Optional(IdempotencyKey), requestId: RequestId },
    { additionalProperties: false },
  ),
  /** Saves the socket's person's selection on a resource (as PUT /api/resources/:id/selection; a viewer's too). */
  select: Type.Object(
    { type: Type.Literal('select'), resourceId: Id, selection: AnyJson, operator: Type.Optional(OperatorSchema), requestId: RequestId },
    { additionalProperties: false },
  ),
  subscribe_task: Type.Object({ type: Type.Literal('subscribe_task'), taskId: Id, requestId: RequestId }, { additionalProperties: false }),
  unsubscribe_task: Type.Object({ type: Type.Literal('unsubscribe_task'), taskId: Id, requestId: RequestId }, { additionalProperties: false }),
  /** A person's decision on a high-impact call waiting for approval (as POST /api/approvals/:id/approve|deny). */
  decide_approval: Type.Object(
    {
      type: Type.Literal('decide_approval'),
      approvalId: Id,
      decision: Type.Union([Type.Literal('approve'), Type.Literal('deny')]),
      reason: Type.Optional(Type.String({ maxLength: 2000 })),
      requestId: RequestId,
    },
    { additionalProperties: false },
  ),
} satisfies Record<string, TSchema>;

export type ClientMessage = { [T in keyof typeof CLIENT_MESSAGES]: Static<(typeof CLIENT_MESSAGES)[T]> }[keyof typeof CLIENT_MESSAGES];

export type ServerMessage =
  | { type: 'revision'; resourceId: string; revision: number; action: string; operator: string; op: unknown }
  | { type: 'subscribed'; requestId?: string; resourceId: string; sinceRevision: number; currentRevision: number }
  | { type: 'unsubscribed'; requestId?: string; resourceId: string }
  | { type: 'committed'; requestId?: string; resourceId: string; revision: number }
  | { type: 'selected'; requestId?: string; resourceId: string; person: string; selection: unknown; updatedAt: string }
  | { type: 'task_subscribed'; requestId?: string; taskId: string; status: string }
  | { type: 'task_unsubscribed'; requestId?: string; taskId: string }
  | { type: 'task_event'; taskId: string; event: TaskEvent }
  | { type: 'approval_decided'; requestId?: string; approval: unknown }
  | { type: 'error'; requestId?: string; error: { code: ErrorCode; message: string } & Record<string, unknown> };

/** A committed revision as live clients receive it, the same whether it came from history or live. */
export function revisionMessage(record: RevisionRecord | RevisionEvent): ServerMessage {
  return { type: 'revision', resourceId: record.resourceId, revision: record.revision, action: record.action, operator: record.operator, op: record.op };
}

/** Parses one client frame's JSON; throws `invalid_json`. */
export function parseFrame(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new CoworkError('invalid_json', 'a message must be one JSON object');
  }
}

/** The requestId of a parsed frame, if it had a usable one, so that even a refused message can be answered. */
export function requestIdOf(frame: unknown): string | undefined {
  const id = (frame as { requestId?: unknown } | null)?.requestId;
  return typeof id === 'string' && id.length <= 200 ? id : undefined;
}

/** Checks one parsed client frame against its message type; throws `invalid_input` naming the problem. */
export class MessageParser {
  private readonly validators: Map<string, ValidateFunction>;

  constructor() {
    const ajv = new Ajv({ allErrors: false, strict: false, coerceTypes: false });
    this.validators = new Map(Object.entries(CLIENT_MESSAGES).map(([type, schema]) => [type, ajv.compile(schema)]));
  }

  check(frame: unknown): ClientMessage {
    const type = (frame as { type?: unknown } | null)?.type;
    const validate = typeof type === 'string' ? this.validators.get(type) : undefined;
    if (!validate) {
      throw new CoworkError('invalid_input', `unknown message type ${JSON.stringify(type ?? null)}`, { knownTypes: Object.keys(CLIENT_MESSAGES) });
    }
    if (!validate(frame)) {
      const problems = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
      throw new CoworkError('invalid_input', `invalid ${type} message: ${problems.join('; ')}`, { problems });
    }
    return frame as ClientMessage;
  }
}
