import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context';
import { abortedWhenClientLeaves } from '../disconnect';
import { Format, Id, IdParams, Revision } from '../schemas';

const ExportParams = Type.Object({ id: Id, format: Format });
type ExportParams = Static<typeof ExportParams>;
const ExportQuery = Type.Object({ revision: Type.Optional(Revision) }, { additionalProperties: false });
type ExportQuery = Static<typeof ExportQuery>;

/**
 * Exports and views through the kind's contract: `GET /api/resources/:id/export/:format` answers
 * the bytes with the format's media type and a download file name; `.../exports` lists the formats;
 * `.../view` answers the kind's view blocks for the web page.
 */
export function registerExportRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const tags = ['resources'];

  app.get<{ Params: IdParams }>(
    '/api/resources/:id/exports',
    {
      schema: {
        summary: "The formats a resource's kind exports to",
        tags,
        params: IdParams,
        response: {
          200: Type.Object({
            formats: Type.Array(
              Type.Object({ format: Type.String(), mediaType: Type.String(), extension: Type.String(), description: Type.Optional(Type.String()) }),
            ),
          }),
        },
      },
    },
    async (request) => ({ formats: await ctx.host.exports.formats(request.params.id) }),
  );

  app.get<{ Params: IdParams; Querystring: ExportQuery }>(
    '/api/resources/:id/view',
    {
      schema: {
        summary: "The resource as its kind's view shows it to people: plain blocks (null when the kind has no view)",
        tags,
        params: IdParams,
        querystring: ExportQuery,
      },
    },
    async (request) => ctx.host.views.view(request.params.id, { revision: request.query.revision }),
  );

  app.get<{ Params: ExportParams; Querystring: ExportQuery }>(
    '/api/resources/:id/export/:format',
    {
      schema: {
        summary: 'Export a resource (the newest revision, or ?revision=N) to a format of its kind',
        tags,
        params: ExportParams,
        querystring: ExportQuery,
      },
    },
    async (request, reply) => {
      const result = await ctx.host.exports.export(request.params.id, request.params.format, { revision: request.query.revision, signal: abortedWhenClientLeaves(reply) });
      return reply
        .header('content-type', result.mediaType)
        .header('content-disposition', `attachment; filename="${result.fileName}"`)
        .header('x-cowork-revision', String(result.revision))
        .send(Buffer.from(result.data));
    },
  );
}
