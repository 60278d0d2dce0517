import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { runView } from '../../agents/runs';
import { currentTask } from '../../agents/task-view';
import type { ServerContext } from '../context';
import { Id, IdParams, Open } from '../schemas';

const RunParams = Type.Object({ id: Id, runId: Id });
type RunParams = Static<typeof RunParams>;
const MetricParams = Type.Object({
  id: Id,
  runId: Id,
  // The names a run's metrics may have (agents/run-metrics.ts): another name is `invalid_input`.
  name: Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_.\\-/:]{0,63}$', description: 'A metric name (a `/` in it is sent as %2F).' }),
});
type MetricParams = Static<typeof MetricParams>;
const SeriesQuery = Type.Object(
  { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'The last this many points (default 1000).' })) },
  { additionalProperties: false },
);
type SeriesQuery = Static<typeof SeriesQuery>;

const MetricSummarySchema = Open({
  last: Type.Number(),
  lastStep: Type.Union([Type.Integer(), Type.Null()]),
  best: Type.Number(),
  bestStep: Type.Union([Type.Integer(), Type.Null()]),
  direction: Type.String(),
  count: Type.Integer(),
});

const RunSchema = Open({
  id: Type.String(),
  taskId: Type.String(),
  name: Type.String(),
  status: Type.String(),
  params: Open(),
  goal: Type.Union([Open({ metric: Type.String(), direction: Type.String() }), Type.Null()]),
  jobIds: Type.Array(Type.String()),
  startedAt: Type.String(),
  endedAt: Type.Union([Type.String(), Type.Null()]),
  metrics: Type.Record(Type.String(), MetricSummarySchema),
  artifacts: Type.Array(Type.String()),
  problems: Type.Array(Open({ jobId: Type.String(), file: Type.String(), line: Type.Integer(), reason: Type.String() })),
  problemCount: Type.Integer(),
});

const PointSchema = Open({ step: Type.Union([Type.Integer(), Type.Null()]), value: Type.Number(), at: Type.String() });

/**
 * A task's runs (agents/runs.ts), read only: the list newest first and one run, each as agents see
 * it (`runView`, its metrics read up to now), and one metric's series. An unknown task, or a run
 * that is not the task's, is `not_found`.
 */
export function registerRunRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const tags = ['tasks'];
  const runs = ctx.host.runs;

  app.get<{ Params: IdParams }>(
    '/api/tasks/:id/runs',
    { schema: { summary: "A task's runs, newest first: name, status, params, metrics (last and best), artifacts, problems", tags, params: IdParams, errors: [404], response: { 200: Type.Object({ runs: Type.Array(RunSchema) }) } } },
    async (request) => {
      await currentTask(ctx.host, request.params.id);
      return { runs: (await runs.list(request.params.id)).map(runView) };
    },
  );

  app.get<{ Params: RunParams }>(
    '/api/tasks/:id/runs/:runId',
    { schema: { summary: 'One run of a task, its metrics read up to now', tags, params: RunParams, errors: [404], response: { 200: RunSchema } } },
    async (request) => {
      await currentTask(ctx.host, request.params.id);
      return runView(await runs.get(request.params.id, request.params.runId));
    },
  );

  app.get<{ Params: MetricParams; Querystring: SeriesQuery }>(
    '/api/tasks/:id/runs/:runId/metrics/:name',
    {
      schema: {
        summary: "One metric's series of a run, oldest first (the last `limit` points); a metric the run has not reported has none",
        tags,
        params: MetricParams,
        querystring: SeriesQuery,
        errors: [400, 404],
        response: { 200: Type.Object({ name: Type.String(), points: Type.Array(PointSchema) }) },
      },
    },
    async (request) => {
      const { id, runId, name } = request.params;
      await currentTask(ctx.host, id);
      const points = await runs.series(id, runId, name, request.query.limit);
      return { name, points: points.map((p) => ({ step: p.step, value: p.value, at: p.at })) };
    },
  );
}
