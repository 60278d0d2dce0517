import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context';
import { writingOperator } from '../../identity/principal';
import { AcceptBody, CandidateSchema, CommitResultSchema, IdParams, OperatorBody } from '../schemas';

/** Reviewing candidates: accept commits a candidate's ops (with the revision check); reject closes it. */
export function registerCandidateRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const resources = ctx.host.resources;
  const tags = ['candidates'];

  app.get<{ Params: IdParams }>(
    '/api/candidates/:id',
    { schema: { summary: 'One candidate', tags, params: IdParams, response: { 200: CandidateSchema } } },
    async (request) => resources.getCandidate(request.params.id),
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
