import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context';
import { abortedWhenClientLeaves } from '../disconnect';
import { Format, Id, IdParams, Revision } from '../schemas';

const ExportParams = Type.Object({ id: Id, format: Format });
type ExportParams = Static<typeof ExportParams>;
const ExportQuery = Type.Object({ revision: Type.Optional(Revision) }, { additionalProperties: false });
type ExportQuery = Static<typeof ExportQuery>;
const FileQuery = Type.Object({ revision: Type.Optional(Revision), inline: Type.Optional(Type.Boolean()) }, { additionalProperties: false });
type FileQuery = Static<typeof FileQuery>;

/**
 * Headers of an export a view frames (`?inline=true`, a round's report page): this server's page
 * may frame it, no other site may, and the sandbox (no allow-scripts, no allow-same-origin) runs
 * it in an opaque origin with no script at all, so an export's HTML cannot act as the viewer.
 */
export const FRAMED_EXPORT_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'SAMEORIGIN',
  'content-security-policy': "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; frame-ancestors 'self'",
  'referrer-policy': 'no-referrer',
};

/** Whether an export request asks to be shown in place (framed) rather than downloaded. */
export function isInlineExport(query: unknown): boolean {
  return typeof query === 'object' && query !== null && (query as { inline?: unknown }).inline === true;
}

/**
 * Exports and views through the kind's contract: `GET /api/resources/:id/export/:format` answers
 * the bytes with the format's media type and a download file name (with `?inline=true`, to be shown
 * in place in a view's frame, sandboxed); `.../exports` lists the formats;
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

  app.get<{ Params: ExportParams; Querystring: FileQuery }>(
    '/api/resources/:id/export/:format',
    {
      config: { framedExport: true },
      schema: {
        summary: 'Export a resource (the newest revision, or ?revision=N) to a format of its kind; ?inline=true shows it in place (a view\'s frame)',
        tags,
        params: ExportParams,
        querystring: FileQuery,
      },
    },
    async (request, reply) => {
      const result = await ctx.host.exports.export(request.params.id, request.params.format, { revision: request.query.revision, signal: abortedWhenClientLeaves(reply) });
      return reply
        .header('content-type', result.mediaType)
        .header('content-disposition', `${request.query.inline === true ? 'inline' : 'attachment'}; filename="${result.fileName}"`)
        .header('x-cowork-revision', String(result.revision))
        .send(Buffer.from(result.data));
    },
  );
}
