import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { loadPolicy } from '../../approvals/policy';
import { writingOperator } from '../../identity/principal';
import type { ServerContext } from '../context';
import { Open, OperatorSchema } from '../schemas';

const Id = Type.String({ minLength: 1, maxLength: 200 });
const IdParams = Type.Object({ id: Id });
type IdParams = Static<typeof IdParams>;
const ListQuery = Type.Object(
  { status: Type.Optional(Type.Union([Type.Literal('pending'), Type.Literal('approved'), Type.Literal('denied')])), taskId: Type.Optional(Id) },
  { additionalProperties: false },
);
type ListQuery = Static<typeof ListQuery>;
const DecisionBody = Type.Object(
  { reason: Type.Optional(Type.String({ maxLength: 2000 })), operator: Type.Optional(OperatorSchema) },
  { additionalProperties: false },
);
type DecisionBody = Static<typeof DecisionBody>;

export const ApprovalSchema = Open({
  id: Type.String(),
  taskId: Type.String(),
  agentId: Type.String(),
  tool: Type.String(),
  impact: Type.String(),
  status: Type.String(),
  requestedAt: Type.String(),
  decidedBy: Type.Union([Type.String(), Type.Null()]),
});

/**
 * High-impact tool calls waiting for a person, and the decisions. Approving or denying is a write:
 * it is recorded as the credential's person (a viewer cannot decide, an agent never can).
 */
export function registerApprovalRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const tags = ['approvals'];
  const approvals = ctx.host.approvals;

  app.get<{ Querystring: ListQuery }>(
    '/api/approvals',
    { schema: { summary: 'Approvals, oldest first: all, or by status and task', tags, querystring: ListQuery, response: { 200: Type.Object({ approvals: Type.Array(ApprovalSchema) }) } } },
    async (request) => ({ approvals: await approvals.list(request.query) }),
  );

  app.get<{ Params: IdParams }>(
    '/api/approvals/:id',
    { schema: { summary: 'One approval: the call it holds, and who decided it', tags, params: IdParams, errors: [404], response: { 200: ApprovalSchema } } },
    async (request) => approvals.get(request.params.id),
  );

  for (const [action, decision] of [['approve', 'approved'], ['deny', 'denied']] as const) {
    app.post<{ Params: IdParams; Body: DecisionBody }>(
      `/api/approvals/:id/${action}`,
      {
        schema: {
          summary: action === 'approve' ? 'Approve: the waiting call runs' : 'Deny: the waiting call answers `denied` and does nothing',
          tags,
          params: IdParams,
          body: DecisionBody,
          errors: [403, 404, 409],
          response: { 200: ApprovalSchema },
        },
      },
      async (request) => {
        const operator = await writingOperator(request.principal, request.body?.operator, ctx.defaultOperator, ctx.users);
        return approvals.decide(request.params.id, decision, operator, request.body?.reason);
      },
    );
  }

  app.get(
    '/api/policy',
    { schema: { summary: "The workspace's approval policy: for each impact, ask, allow or deny (edit <workspace>/policy.json)", tags, response: { 200: Type.Object({ approvals: Type.Record(Type.String(), Type.String()) }) } } },
    async () => ({ approvals: loadPolicy(ctx.host.workspaceDir) }),
  );
}
