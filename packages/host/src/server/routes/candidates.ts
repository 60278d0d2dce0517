import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context';
import { writingOperator } from '../../identity/principal';
import { AcceptBody, AnyJson, CandidateSchema, CommitResultSchema, IdParams, OperatorBody, Revision } from '../schemas';

const PreviewQuery = Type.Object({ revision: Type.Optional(Revision) }, { additionalProperties: false });
type PreviewQuery = Static<typeof PreviewQuery>;

/** Reviewing candidates: accept commits a candidate's ops (with the revision check); reject closes it. */
export function registerCandidateRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const resources = ctx.host.resources;
  const tags = ['candidates'];

  app.get<{ Params: IdParams }>(
    '/api/candidates/:id',
    { schema: { summary: 'One candidate', tags, params: IdParams, response: { 200: CandidateSchema } } },
    async (request) => resources.getCandidate(request.params.id),
  );

  app.get<{ Params: IdParams; Querystring: PreviewQuery }>(
    '/api/candidates/:id/preview',
    {
      schema: {
        summary: "What accepting the candidate on a revision (default: the current one) would make: the kind's diff and the content; writes nothing",
        tags,
        params: IdParams,
        querystring: PreviewQuery,
        response: { 200: Type.Object({ candidateId: Type.String(), revision: Revision, diff: Type.String(), content: AnyJson }) },
      },
    },
    async (request) => resources.previewCandidate(request.params.id, request.query.revision),
  );

  app.post<{ Params: IdParams; Body: AcceptBody }>(
    '/api/candidates/:id/accept',
    {
      schema: {
        summary: "Accept: commit the candidate's ops as its author; baseRevision retries a conflicted op on a newer revision",
        tags,
        params: IdParams,
        body: AcceptBody,
        errors: [409],
        response: { 200: CommitResultSchema },
      },
    },
    async (request) => {
      const operator = await writingOperator(request.principal, request.body.operator, ctx.defaultOperator, ctx.users);
      return resources.acceptCandidate(request.params.id, { operator, baseRevision: request.body.baseRevision });
    },
  );

  app.post<{ Params: IdParams; Body: OperatorBody }>(
    '/api/candidates/:id/reject',
    {
      schema: {
        summary: 'Reject the candidate (it stays on record, closed)',
        tags,
        params: IdParams,
        body: OperatorBody,
        errors: [409],
        response: { 200: Type.Object({ candidate: CandidateSchema }) },
      },
    },
    async (request) => ({ candidate: await resources.rejectCandidate(request.params.id, await writingOperator(request.principal, request.body.operator, ctx.defaultOperator, ctx.users)) }),
  );
}
