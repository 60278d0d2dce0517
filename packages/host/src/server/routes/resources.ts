import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Operator } from '../../store/records';
import type { ServerContext } from '../context';
import { selectingPerson, writingOperator } from '../../identity/principal';
import {
  AnyJson,
  CandidateSchema,
  CandidatesQuery,
  ChangesQuery,
  CommitBody,
  CommitResultSchema,
  CreateResourceBody,
  IdParams,
  ListedResourceSchema,
  ListQuery,
  ResourceSchema,
  RestoreBody,
  Revision,
  RevisionParams,
  RevisionSchema,
  RevisionsQuery,
  SelectionBody,
  SelectionSchema,
} from '../schemas';

/**
 * The resource protocol over HTTP. Each handler is one call on the resource service, which owns
 * validation, the revision check and candidates: the same function every other edge calls, so a
 * commit here and a commit by an agent are the same commit.
 */
export function registerResourceRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const resources = ctx.host.resources;
  const tags = ['resources'];

  app.get<{ Querystring: ListQuery }>(
    '/api/resources',
    {
      schema: {
        summary: 'List resources, oldest first, each with who made its newest revision (updatedBy) and when (updatedAt)',
        tags,
        querystring: ListQuery,
        response: { 200: Type.Object({ resources: Type.Array(ListedResourceSchema) }) },
      },
    },
    async (request) => {
      const listed = await resources.list(request.query);
      const heads = await Promise.all(listed.map((r) => resources.history(r.id, { after: r.revision - 1, limit: 1 })));
      return { resources: listed.map((r, i) => ({ ...r, updatedBy: heads[i]![0]?.operator ?? '' })) };
    },
  );

  app.post<{ Body: CreateResourceBody }>(
    '/api/resources',
    {
      schema: {
        summary: "Create a resource, with the kind's initial content unless content is given",
        tags,
        body: CreateResourceBody,
        response: { 201: ResourceSchema },
      },
    },
    async (request, reply) => {
      const { kind, content, title, idempotencyKey } = request.body;
      const operator = await writingOperator(request.principal, request.body.operator, ctx.defaultOperator, ctx.users);
      const created = await resources.create({ kind, content, title, operator, idempotencyKey });
      return reply.code(201).send(created);
    },
  );

  app.get<{ Params: IdParams }>(
    '/api/resources/:id',
    { schema: { summary: 'A resource: kind, current revision and content', tags, params: IdParams, response: { 200: ResourceSchema } } },
    async (request) => resources.get(request.params.id),
  );

  app.get<{ Params: IdParams; Querystring: RevisionsQuery }>(
    '/api/resources/:id/revisions',
    {
      schema: {
        summary: 'Committed revisions (who, which op, when), oldest first; `after` skips up to that revision',
        tags,
        params: IdParams,
        querystring: RevisionsQuery,
        response: { 200: Type.Object({ revisions: Type.Array(RevisionSchema) }) },
      },
    },
    async (request) => ({ revisions: await resources.history(request.params.id, request.query) }),
  );

  app.get<{ Params: RevisionParams }>(
    '/api/resources/:id/revisions/:revision',
    {
      schema: {
        summary: 'The content of one revision',
        tags,
        params: RevisionParams,
        response: { 200: Type.Object({ resourceId: Type.String(), revision: Revision, content: AnyJson }) },
      },
    },
    async (request) => {
      const { id, revision } = request.params;
      return { resourceId: id, revision, content: await resources.contentAt(id, revision) };
    },
  );

  app.get<{ Params: IdParams; Querystring: ChangesQuery }>(
    '/api/resources/:id/changes',
    {
      schema: {
        summary: 'Revisions after `since`, optionally leaving out one operator\'s own ("what did others change?")',
        tags,
        params: IdParams,
        querystring: ChangesQuery,
        response: { 200: Type.Object({ changes: Type.Array(RevisionSchema) }) },
      },
    },
    async (request) => {
      const { since, excludeOperator, limit } = request.query;
      return { changes: await resources.changes(request.params.id, { since, excludeOperator: excludeOperator as Operator | undefined, limit }) };
    },
  );

  app.post<{ Params: IdParams; Body: CommitBody }>(
    '/api/resources/:id/commits',
    {
      schema: {
        summary: 'Commit one op on top of baseRevision; 409 revision_conflict (with currentRevision and candidateId) when someone committed first',
        tags,
        params: IdParams,
        body: CommitBody,
        errors: [409],
        response: { 200: CommitResultSchema },
      },
    },
    async (request) => {
      const { baseRevision, op, idempotencyKey } = request.body;
      const operator = await writingOperator(request.principal, request.body.operator, ctx.defaultOperator, ctx.users);
      return resources.commit(request.params.id, { baseRevision, op, operator, idempotencyKey });
    },
  );

  app.post<{ Params: IdParams; Body: RestoreBody }>(
    '/api/resources/:id/restore',
    {
      schema: {
        summary: "Restore: make an old revision's content the newest revision (a commit, with the same revision check)",
        tags,
        params: IdParams,
        body: RestoreBody,
        errors: [409],
        response: { 200: CommitResultSchema },
      },
    },
    async (request) => {
      const { revision, baseRevision } = request.body;
      const operator = await writingOperator(request.principal, request.body.operator, ctx.defaultOperator, ctx.users);
      return resources.restore(request.params.id, { revision, baseRevision, operator });
    },
  );

  app.get<{ Params: IdParams; Querystring: CandidatesQuery }>(
    '/api/resources/:id/candidates',
    {
      schema: {
        summary: 'Candidates: ops kept after a conflict, and drafts proposed for review',
        tags,
        params: IdParams,
        querystring: CandidatesQuery,
        response: { 200: Type.Object({ candidates: Type.Array(CandidateSchema) }) },
      },
    },
    async (request) => ({ candidates: await resources.listCandidates(request.params.id, request.query.status) }),
  );

  app.put<{ Params: IdParams; Body: SelectionBody }>(
    '/api/resources/:id/selection',
    {
      // A selection changes no resource: a viewer saves theirs too.
      config: { viewer: true },
      schema: {
        summary: "Save the credential's person's selection (any JSON up to 64 KiB: a range, a slide, a feature; null clears it); agents see it when they read the resource",
        tags,
        params: IdParams,
        body: SelectionBody,
        response: { 200: SelectionSchema },
      },
    },
    async (request) => {
      const person = await selectingPerson(request.principal, request.body.operator, ctx.defaultOperator, ctx.users);
      return resources.setSelection(request.params.id, person, request.body.selection);
    },
  );

  app.get<{ Params: IdParams }>(
    '/api/resources/:id/selections',
    { schema: { summary: "Each person's saved selection on the resource", tags, params: IdParams, response: { 200: Type.Object({ selections: Type.Array(SelectionSchema) }) } } },
    async (request) => ({ selections: await resources.listSelections(request.params.id) }),
  );
}
