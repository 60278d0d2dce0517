import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context';
import { startDemo } from '../demo/run-demo';

/**
 * The recorded demo: a task played from a recording through the real runtime and plugins (Main
 * delegates, a person edits, Main's commit conflicts and is redone on the new revision). It never
 * calls a model, so it runs whether or not one is configured.
 */
export function registerDemoRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.post(
    '/api/demo',
    {
      schema: {
        summary: 'Start the recorded demo task over a new demo text resource',
        tags: ['tasks'],
        response: { 202: Type.Object({ taskId: Type.String(), resourceId: Type.String() }) },
      },
    },
    async (_request, reply) => reply.code(202).send(await startDemo(ctx.host, (provider) => ctx.tasks.runtimeFor(provider))),
  );
}
