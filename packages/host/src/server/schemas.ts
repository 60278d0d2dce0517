import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { CANDIDATE_STATUSES, REVISION_ACTIONS } from '../store/records';

/**
 * The wire shapes of the HTTP API, each defined once: the same object validates requests, types
 * the handlers (`Static<...>`) and documents the API in the OpenAPI document.
 */

export const Id = Type.String({ minLength: 1, maxLength: 200 });
export const Revision = Type.Integer({ minimum: 0 });
export const OperatorSchema = Type.String({
  pattern: '^(human|agent):[A-Za-z0-9][A-Za-z0-9._@-]{0,127}$',
  description: 'Who acts: "human:<name>" or "agent:<id>".',
});
export const IdempotencyKey = Type.String({ minLength: 1, maxLength: 200, description: 'A repeated request with the same key returns the first result.' });
/** An export or import format's name (`pptx`, `step`). */
export const Format = Type.String({ pattern: '^[a-z0-9][a-z0-9_-]{0,31}$' });
/** Any JSON value (content, ops); the resource kind's own schema checks it. */
export const AnyJson = Type.Unknown();
const Limit = Type.Integer({ minimum: 1, maximum: 1000 });

export const IdParams = Type.Object({ id: Id });
export type IdParams = Static<typeof IdParams>;

export const ErrorBody = Type.Object(
  {
    error: Type.Object(
      { code: Type.String(), message: Type.String(), hint: Type.String() },
      { additionalProperties: true, description: 'Named details (currentRevision, candidateId, ...) sit beside code and message.' },
    ),
  },
);

export const ResourceSchema = Type.Object(
  { id: Id, kind: Type.String(), revision: Revision, content: AnyJson, title: Type.Optional(Type.String()), createdAt: Type.String(), updatedAt: Type.String() },
  { additionalProperties: false },
);

/** A resource as listed: with who made its newest revision (`updatedAt` is when). */
export const ListedResourceSchema = Type.Composite([ResourceSchema, Type.Object({ updatedBy: Type.String() })], { additionalProperties: false });

/** A resource's title, as people give it at creation or import. */
export const Title = Type.String({ minLength: 1, maxLength: 200, description: 'What people call it; without one the page shows its id' });

export const RevisionSchema = Type.Object({
  resourceId: Id,
  revision: Revision,
  action: Type.Union(REVISION_ACTIONS.map((action) => Type.Literal(action))),
  op: AnyJson,
  operator: Type.String(),
  createdAt: Type.String(),
});

export const CandidateSchema = Type.Object({
  id: Id,
  resourceId: Id,
  baseRevision: Revision,
  ops: Type.Array(AnyJson),
  operator: Type.String(),
  source: Type.String(),
  draftId: Type.Union([Type.String(), Type.Null()]),
  status: Type.String(),
  createdAt: Type.String(),
  resolvedAt: Type.Union([Type.String(), Type.Null()]),
  resolvedBy: Type.Union([Type.String(), Type.Null()]),
  acceptedRevision: Type.Union([Revision, Type.Null()]),
});

export const CreateResourceBody = Type.Object(
  { kind: Type.String({ minLength: 1, maxLength: 200 }), content: Type.Optional(AnyJson), title: Type.Optional(Title), operator: Type.Optional(OperatorSchema), idempotencyKey: Type.Optional(IdempotencyKey) },
  { additionalProperties: false },
);
export type CreateResourceBody = Static<typeof CreateResourceBody>;

export const CommitBody = Type.Object(
  { baseRevision: Revision, op: AnyJson, operator: Type.Optional(OperatorSchema), idempotencyKey: Type.Optional(IdempotencyKey) },
  { additionalProperties: false },
);
export type CommitBody = Static<typeof CommitBody>;

/** A person's selection: any JSON value (a range, a slide, a feature), at most 64 KiB; null clears it. */
export const SelectionBody = Type.Object(
  { selection: AnyJson, operator: Type.Optional(OperatorSchema) },
  { additionalProperties: false, description: "Saves the credential's person's selection on the resource (a viewer's too); agents see it in their view." },
);
export type SelectionBody = Static<typeof SelectionBody>;

export const SelectionSchema = Type.Object({ resourceId: Type.String(), person: Type.String(), selection: AnyJson, updatedAt: Type.String() });

export const RestoreBody = Type.Object(
  { revision: Revision, baseRevision: Revision, operator: Type.Optional(OperatorSchema) },
  { additionalProperties: false, description: "Makes an old revision's content the newest revision." },
);
export type RestoreBody = Static<typeof RestoreBody>;

export const AcceptBody = Type.Object({ operator: Type.Optional(OperatorSchema), baseRevision: Type.Optional(Revision) }, { additionalProperties: false });
export type AcceptBody = Static<typeof AcceptBody>;
export const OperatorBody = Type.Object({ operator: Type.Optional(OperatorSchema) }, { additionalProperties: false });
export type OperatorBody = Static<typeof OperatorBody>;

export const CommitResultSchema = Type.Object({ resourceId: Id, revision: Revision });

export const ListQuery = Type.Object({ kind: Type.Optional(Type.String({ maxLength: 200 })), limit: Type.Optional(Limit) }, { additionalProperties: false });
export type ListQuery = Static<typeof ListQuery>;
export const RevisionsQuery = Type.Object({ after: Type.Optional(Type.Integer({ minimum: -1 })), limit: Type.Optional(Limit) }, { additionalProperties: false });
export type RevisionsQuery = Static<typeof RevisionsQuery>;
export const ChangesQuery = Type.Object(
  { since: Revision, excludeOperator: Type.Optional(OperatorSchema), limit: Type.Optional(Limit) },
  { additionalProperties: false },
);
export type ChangesQuery = Static<typeof ChangesQuery>;
export const CandidatesQuery = Type.Object(
  { status: Type.Optional(Type.Union(CANDIDATE_STATUSES.map((status) => Type.Literal(status)))) },
  { additionalProperties: false },
);
export type CandidatesQuery = Static<typeof CandidatesQuery>;
export const RevisionParams = Type.Object({ id: Id, revision: Revision });
export type RevisionParams = Static<typeof RevisionParams>;

/** A response object whose fields are documented elsewhere and passed through as they are. */
export function Open(properties: Record<string, TSchema> = {}, description?: string): TSchema {
  return Type.Object(properties, { additionalProperties: true, ...(description ? { description } : {}) });
}
