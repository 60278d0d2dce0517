import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { CoworkError } from '../../errors';
import { currentTask } from '../../agents/task-view';
import type { ServerContext } from '../context';
import { Id } from '../schemas';

const JobLogParams = Type.Object({ id: Id, jobId: Id });
type JobLogParams = Static<typeof JobLogParams>;
const JobLogQuery = Type.Object(
  {
    stream: Type.Optional(Type.Union([Type.Literal('stdout'), Type.Literal('stderr')])),
    tail: Type.Optional(Type.Integer({ minimum: 1, maximum: 2000, description: 'The last this many lines (default 200).' })),
  },
  { additionalProperties: false },
);
type JobLogQuery = Static<typeof JobLogQuery>;

/**
 * The last lines of a task's job's log, for the page to follow while the job runs. A job that is
 * not the task's is `not_found`, as an unknown one is.
 */
export function registerJobLogRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.get<{ Params: JobLogParams; Querystring: JobLogQuery }>(
    '/api/tasks/:id/jobs/:jobId/log',
    {
      schema: {
        summary: "The last lines of one of a task's jobs' stdout (or stderr), with the job's status",
        tags: ['tasks'],
        params: JobLogParams,
        querystring: JobLogQuery,
        errors: [404],
        response: {
          200: Type.Object({
            jobId: Type.String(),
            status: Type.String(),
            stream: Type.String(),
            totalLines: Type.Integer(),
            lines: Type.Array(Type.Object({ n: Type.Integer(), text: Type.String() })),
          }),
        },
      },
    },
    async (request) => {
      const { id, jobId } = request.params;
      await currentTask(ctx.host, id);
      const job = await ctx.host.jobs.get(jobId);
      if (job.taskId !== id) throw new CoworkError('not_found', `task ${id} has no job ${jobId}`, { taskId: id, jobId });
      const logs = await ctx.host.jobs.logs(jobId, { stream: request.query.stream ?? 'stdout', tail: request.query.tail ?? 200 });
      return { jobId, status: job.status, stream: logs.stream, totalLines: logs.totalLines, lines: logs.lines.map((l) => ({ n: l.n, text: l.text })) };
    },
  );
}
