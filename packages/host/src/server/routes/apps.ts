import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { CoworkError } from '../../errors';
import type { ServerContext } from '../context';
import { Id } from '../schemas';

const AppParams = Type.Object({ id: Id, '*': Type.String({ maxLength: 1024 }) });
type AppParams = Static<typeof AppParams>;
const RevisionAppParams = Type.Object({ id: Id, revision: Type.Integer({ minimum: 0 }), '*': Type.String({ maxLength: 1024 }) });
type RevisionAppParams = Static<typeof RevisionAppParams>;

/**
 * Headers of a served app. The sandbox (without allow-same-origin) runs the app in an opaque
 * origin: its scripts cannot read the viewer's session or call this server's API as the viewer.
 * The page of this server may frame it; no other site may.
 */
export const APP_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'SAMEORIGIN',
  'content-security-policy': "sandbox allow-scripts allow-forms allow-modals; frame-ancestors 'self'",
  'referrer-policy': 'no-referrer',
};

/**
 * Live apps: a kind with `app` (see plugins/apps.ts) is served at `/apps/:id/` (the newest
 * revision, so a reload shows the latest commit) and `/apps/:id/r/:revision/` (one revision, fixed,
 * so relative URLs inside it stay on that revision).
 */
export function registerAppRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const schema = { summary: 'A file of a live web app (the newest revision)', tags: ['apps'], params: AppParams };
  const config = { app: true };
  app.get('/apps/:id', { schema: { summary: 'Redirects to the app root', tags: ['apps'], params: Type.Object({ id: Id }) }, config }, async (request, reply) =>
    reply.redirect(`/apps/${encodeURIComponent((request.params as { id: string }).id)}/`),
  );
  app.get<{ Params: AppParams }>('/apps/:id/*', { schema, config }, async (request, reply) => {
    const resource = await ctx.host.resources.get(request.params.id);
    return sendAppFile(ctx, reply, resource.id, resource.revision, resource.content, request.params['*']);
  });
  app.get<{ Params: RevisionAppParams }>(
    '/apps/:id/r/:revision/*',
    { schema: { ...schema, summary: 'A file of a live web app at one revision', params: RevisionAppParams }, config },
    async (request, reply) => {
      const { id, revision } = request.params;
      const content = await ctx.host.resources.contentAt(id, revision);
      return sendAppFile(ctx, reply, id, revision, content, request.params['*']);
    },
  );
}

async function sendAppFile(ctx: ServerContext, reply: FastifyReply, id: string, revision: number, content: unknown, rawPath: string): Promise<FastifyReply> {
  const resource = await ctx.host.resources.get(id);
  const serving = ctx.host.registry.kind(resource.kind).kind.app;
  if (!serving) {
    throw new CoworkError('unknown_format', `kind ${resource.kind} is not a web app; only kinds that declare app are served under /apps`, { kind: resource.kind, formats: [] });
  }
  const path = appPath(rawPath);
  const file = serving.file(content as never, path);
  if (!file) throw new CoworkError('not_found', `app ${id} revision ${revision} has no file ${JSON.stringify(path)}`, { resourceId: id, revision, path });
  return reply.header('content-type', file.mediaType).header('x-cowork-revision', String(revision)).send(typeof file.data === 'string' ? file.data : Buffer.from(file.data));
}

/** The requested file's path inside the app: decoded segments, `index.html` for a directory, no `..`. */
export function appPath(raw: string): string {
  const segments = raw.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.some((s) => s === '..' || s.includes('\\') || s.includes('\0'))) {
    throw new CoworkError('invalid_input', 'an app path may not leave the app (no .. segments)');
  }
  const path = segments.join('/');
  return path === '' || raw.endsWith('/') ? (path === '' ? 'index.html' : `${path}/index.html`) : path;
}
