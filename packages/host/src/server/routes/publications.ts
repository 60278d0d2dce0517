import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { manifestOf } from '../../agents/publications';
import { CoworkError } from '../../errors';
import { writingOperator } from '../../identity/principal';
import type { ServerContext } from '../context';
import { abortedWhenClientLeaves } from '../disconnect';
import { Format, IdempotencyKey, IdParams, Open, OperatorSchema, Revision } from '../schemas';

const PublishBody = Type.Object(
  {
    resourceId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    format: Type.Optional(Format),
    revision: Type.Optional(Revision),
    file: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: "A file of the task's work folder, relative to it." })),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    operator: Type.Optional(OperatorSchema),
    idempotencyKey: Type.Optional(IdempotencyKey),
  },
  { additionalProperties: false },
);
type PublishBody = Static<typeof PublishBody>;

export const PublicationSchema = Open({
  id: Type.String(),
  taskId: Type.String(),
  source: Type.Unknown(),
  revision: Type.Union([Type.Integer(), Type.Null()]),
  commit: Type.Union([Type.String(), Type.Null()]),
  sha256: Type.String(),
  bytes: Type.Integer(),
  mediaType: Type.String(),
  fileName: Type.String(),
  publishedAt: Type.String(),
  operator: Type.String(),
});

/**
 * A task's published results: listed, read (the manifest) and downloaded (the bytes, checked
 * against their SHA-256). Publishing over HTTP is a person's write, recorded as the credential's
 * person (a viewer is refused); an agent publishes with Main's `publish` tool, after approval.
 */
export function registerPublicationRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const tags = ['published'];
  const publications = ctx.host.publications;

  app.get<{ Params: IdParams }>(
    '/api/tasks/:id/published',
    { schema: { summary: "A task's published results, oldest first", tags, params: IdParams, errors: [404], response: { 200: Type.Object({ published: Type.Array(PublicationSchema) }) } } },
    async (request) => ({ published: (await publications.list(request.params.id)).map(manifestOf) }),
  );

  app.post<{ Params: IdParams; Body: PublishBody }>(
    '/api/tasks/:id/published',
    {
      schema: {
        summary: "Publish a resource's export at a revision ({resourceId, format, revision?}) or a file of the task's work folder ({file})",
        tags,
        params: IdParams,
        body: PublishBody,
        errors: [400, 403, 404],
        response: { 201: PublicationSchema },
      },
    },
    async (request, reply) => {
      const { resourceId, format, revision, file, name, idempotencyKey } = request.body;
      const operator = await writingOperator(request.principal, request.body.operator, ctx.defaultOperator, ctx.users);
      const source = publishSource({ resourceId, format, revision, file });
      const publication = await publications.publish(
        // The key is the person's own: another's key never answers their publication.
        { taskId: request.params.id, source, name, operator, idempotencyKey: idempotencyKey === undefined ? undefined : `http:${operator}:${idempotencyKey}` },
        abortedWhenClientLeaves(reply),
      );
      return reply.code(201).send(manifestOf(publication));
    },
  );

  app.get<{ Params: IdParams }>(
    '/api/published/:id',
    { schema: { summary: "A publication's manifest: source, revision, SHA-256, time, operator", tags, params: IdParams, errors: [404], response: { 200: PublicationSchema } } },
    async (request) => publications.manifest(request.params.id),
  );

  app.get<{ Params: IdParams }>(
    '/api/published/:id/download',
    { schema: { summary: 'The published bytes, as an attachment with their media type', tags, params: IdParams, errors: [404] } },
    async (request, reply) => {
      const { publication, data } = await publications.read(request.params.id);
      return reply
        .header('content-type', publication.mediaType)
        .header('content-disposition', contentDisposition(publication.fileName))
        .header('x-cowork-sha256', publication.sha256)
        .send(data);
    },
  );
}

function publishSource(given: { resourceId?: string; format?: string; revision?: number; file?: string }): { file: string } | { resourceId: string; format: string; revision?: number } {
  const byFile = given.file !== undefined;
  if (byFile && given.resourceId === undefined && given.format === undefined && given.revision === undefined) return { file: given.file! };
  if (!byFile && given.resourceId !== undefined && given.format !== undefined) return { resourceId: given.resourceId, format: given.format, revision: given.revision };
  throw new CoworkError('invalid_input', 'publish takes either {file} or {resourceId, format, revision?}', { field: 'source' });
}

/** `attachment` with an ASCII fallback name and the UTF-8 name (RFC 6266), never a raw quote or newline. */
function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
