import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { writingOperator } from '../../identity/principal';
import type { ServerContext } from '../context';
import { IdParams, Open, OperatorSchema } from '../schemas';

const Turn = Type.Integer({ minimum: 1, maximum: 1_000_000_000, description: "The agent's turn whose snapshot is meant." });
const Agent = Type.String({ minLength: 1, maxLength: 200, description: "Whose turn (default Main's)." });

const snapshotProperties = {
  commit: Type.String(),
  kind: Type.String(),
  agentId: Type.Union([Type.String(), Type.Null()]),
  turn: Type.Union([Type.Integer(), Type.Null()]),
  author: Type.String(),
  email: Type.String(),
  at: Type.String(),
  message: Type.String(),
  files: Type.Array(Type.String()),
};
const SnapshotSchema = Open(snapshotProperties);

const WorkFileSchema = Open({
  path: Type.String(),
  commit: Type.Union([Type.String(), Type.Null()]),
  author: Type.Union([Type.String(), Type.Null()]),
  turn: Type.Union([Type.Integer(), Type.Null()]),
  at: Type.Union([Type.String(), Type.Null()]),
  large: Type.Optional(Open({ size: Type.Integer(), sha256: Type.String() })),
});

const DiffQuery = Type.Object({ turn: Turn, agent: Type.Optional(Agent) }, { additionalProperties: false });
type DiffQuery = Static<typeof DiffQuery>;

const RestoreBody = Type.Object(
  {
    path: Type.String({ minLength: 1, maxLength: 4096, description: "A file of the task's work folder, relative to it." }),
    turn: Turn,
    agent: Type.Optional(Agent),
    operator: Type.Optional(OperatorSchema),
  },
  { additionalProperties: false },
);
type RestoreBody = Static<typeof RestoreBody>;

/**
 * A task's `work/` under git (agents/work-history.ts): its files with their last commit, the
 * snapshots (one per agent turn that changed files, others' changes, restores), one turn's diff,
 * and restoring a file as it was after a turn, a new commit by the credential's person (a viewer
 * is refused by the guard).
 */
export function registerWorkFileRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const tags = ['tasks'];
  const history = ctx.host.workHistory;

  app.get<{ Params: IdParams }>(
    '/api/tasks/:id/files',
    { schema: { summary: "The files of a task's work folder, each with the commit that last changed it", tags, params: IdParams, errors: [404], response: { 200: Type.Object({ files: Type.Array(WorkFileSchema) }) } } },
    async (request) => ({ files: await history.files(request.params.id) }),
  );

  app.get<{ Params: IdParams }>(
    '/api/tasks/:id/files/log',
    { schema: { summary: "The commits of a task's work folder, newest first", tags, params: IdParams, errors: [404], response: { 200: Type.Object({ snapshots: Type.Array(SnapshotSchema) }) } } },
    async (request) => ({ snapshots: await history.log(request.params.id) }),
  );

  app.get<{ Params: IdParams; Querystring: DiffQuery }>(
    '/api/tasks/:id/files/diff',
    {
      schema: {
        summary: "One turn's snapshot and its patch",
        tags,
        params: IdParams,
        querystring: DiffQuery,
        errors: [400, 404],
        response: { 200: Open({ ...snapshotProperties, patch: Type.String() }) },
      },
    },
    async (request) => history.diff(request.params.id, request.query.turn, request.query.agent),
  );

  app.post<{ Params: IdParams; Body: RestoreBody }>(
    '/api/tasks/:id/files/restore',
    {
      schema: {
        summary: 'Restore a file of the work folder as it was after a turn (a new commit)',
        tags,
        params: IdParams,
        body: RestoreBody,
        errors: [400, 403, 404],
        response: { 201: Open({ commit: Type.String(), files: Type.Array(Type.String()), path: Type.String(), turn: Type.Integer() }) },
      },
    },
    async (request, reply) => {
      const operator = await writingOperator(request.principal, request.body.operator, ctx.defaultOperator, ctx.users);
      const restored = await history.restore(request.params.id, request.body.path, request.body.turn, operator, request.body.agent);
      return reply.code(201).send(restored);
    },
  );
}
