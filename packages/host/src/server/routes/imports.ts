import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { CoworkError } from '../../errors';
import { MAX_IMPORT_BYTES } from '../../resources/import-service';
import type { ServerContext } from '../context';
import { writingOperator } from '../../identity/principal';
import { abortedWhenClientLeaves } from '../disconnect';
import { Format, IdempotencyKey, OperatorSchema, ResourceSchema, Title } from '../schemas';

const ImportQuery = Type.Object(
  {
    kind: Type.String({ minLength: 1, maxLength: 200 }),
    format: Type.Optional(Format),
    fileName: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    title: Type.Optional(Title),
    operator: Type.Optional(OperatorSchema),
    idempotencyKey: Type.Optional(IdempotencyKey),
  },
  { additionalProperties: false },
);
type ImportQuery = Static<typeof ImportQuery>;

/**
 * `POST /api/resources/import?kind=K[&format=F][&fileName=N][&title=T]` with the file's bytes as an
 * `application/octet-stream` body: a new resource through the kind's importer. (A cross-site form
 * cannot send that media type without a preflight, which this server does not answer.)
 */
export function registerImportRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer', bodyLimit: MAX_IMPORT_BYTES }, (_request, body, done) => done(null, body));

  app.post<{ Querystring: ImportQuery; Body: Buffer }>(
    '/api/resources/import',
    {
      bodyLimit: MAX_IMPORT_BYTES,
      schema: {
        summary: "Create a resource from a file (pptx, docx, step, ...) through its kind's importer; the body is the file",
        tags: ['resources'],
        querystring: ImportQuery,
        response: { 201: ResourceSchema },
        errors: [422],
      },
    },
    async (request, reply) => {
      if (!Buffer.isBuffer(request.body)) {
        throw new CoworkError('invalid_input', 'send the file as the request body with Content-Type: application/octet-stream');
      }
      const { kind, format, fileName, title, idempotencyKey } = request.query;
      const operator = await writingOperator(request.principal, request.query.operator, ctx.defaultOperator, ctx.users);
      const created = await ctx.host.imports.importFile({ kind, format, fileName, title, data: request.body, operator, idempotencyKey, signal: abortedWhenClientLeaves(reply) });
      return reply.code(201).send(created);
    },
  );
}
