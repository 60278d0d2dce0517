import { createHmac } from 'node:crypto';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { CoworkError } from '../../errors';
import { sameSecret } from '../auth';
import type { ServerContext } from '../context';
import { Id } from '../schemas';
import { containedRelative } from '../../util/paths';

const AppParams = Type.Object({ id: Id, '*': Type.String({ maxLength: 1024 }) });
type AppParams = Static<typeof AppParams>;
const KeyedParams = Type.Object({ id: Id, key: Type.String({ maxLength: 64 }), '*': Type.String({ maxLength: 1024 }) });
type KeyedParams = Static<typeof KeyedParams>;

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
 * revision, so a reload shows the latest commit) and `/apps/:id/r/:revision/` (one revision, fixed).
 *
 * Those two need the usual credentials and redirect to the same path under a key,
 * `/apps/:id/@<key>/...`, where the files are served. The sandbox gives the app an opaque origin,
 * so the browser sends no session cookie with the app's own requests (its scripts, styles,
 * images); the key, an HMAC of the app's id under the server's token, is what lets them load. It
 * grants reading that one app's files and nothing else.
 */
export function registerAppRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const tags = ['apps'];
  const keyOf = (id: string): string => createHmac('sha256', ctx.token).update(`app:${id}`).digest('base64url').slice(0, 32);
  // The path arrives decoded: each segment is encoded again, or a CR, LF, NUL or non-ASCII
  // character would land in the Location header as it is (which Node refuses with a 500).
  const redirect = (reply: FastifyReply, id: string, rest: string): FastifyReply =>
    reply.redirect(`/apps/${encodeURIComponent(id)}/@${keyOf(id)}/${rest.split('/').map(encodeURIComponent).join('/')}`);
  const checkKey = (id: string, key: string): void => {
    if (!sameSecret(key, keyOf(id))) throw new CoworkError('unauthorized', 'this app link is not valid; open the app from the page again');
  };

  app.get<{ Params: { id: string } }>('/apps/:id', { schema: { summary: 'Redirects to the app root', tags, params: Type.Object({ id: Id }) } }, async (request, reply) =>
    redirect(reply, request.params.id, ''),
  );
  app.get<{ Params: AppParams }>('/apps/:id/*', { schema: { summary: 'A live web app (the newest revision): redirects to its keyed address', tags, params: AppParams } }, async (request, reply) => {
    await ctx.host.resources.get(request.params.id);
    return redirect(reply, request.params.id, request.params['*']);
  });
  app.get<{ Params: KeyedParams }>(
    '/apps/:id/@:key/*',
    { schema: { summary: 'A file of a live web app (the newest revision)', tags, params: KeyedParams }, config: { public: true, app: true } },
    async (request, reply) => {
      const { id, key } = request.params;
      checkKey(id, key);
      const rest = request.params['*'];
      const fixed = /^r\/(\d+)(?:\/(.*))?$/s.exec(rest);
      if (fixed) return sendAppFile(ctx, reply, id, Number(fixed[1]), fixed[2] ?? '');
      return sendAppFile(ctx, reply, id, undefined, rest);
    },
  );
}

async function sendAppFile(ctx: ServerContext, reply: FastifyReply, id: string, at: number | undefined, rawPath: string): Promise<FastifyReply> {
  const resource = await ctx.host.resources.get(id);
  const revision = at ?? resource.revision;
  const serving = ctx.host.registry.kind(resource.kind).kind.app;
  if (!serving) {
    throw new CoworkError('unknown_format', `kind ${resource.kind} is not a web app; only kinds that declare app are served under /apps`, { kind: resource.kind, formats: [] });
  }
  const path = appPath(rawPath);
  const content = revision === resource.revision ? resource.content : await ctx.host.resources.contentAt(id, revision);
  const file = serving.file(content as never, path);
  if (!file) throw new CoworkError('not_found', `app ${id} revision ${revision} has no file ${JSON.stringify(path)}`, { resourceId: id, revision, path });
  return reply.header('content-type', file.mediaType).header('x-cowork-revision', String(revision)).send(typeof file.data === 'string' ? file.data : Buffer.from(file.data));
}

/**
 * The requested file's path inside the app: decoded segments, `index.html` for a directory, no `..`.
 * The path goes through the one containment check (util/paths containedRelative) as a URL path, so
 * a NUL, a backslash, a look-alike dot or percent-encoding left after decoding (`%2e%2e`) is refused.
 */
export function appPath(raw: string): string {
  const segments = raw.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.some((s) => s === '..' || s.includes('\\') || s.includes('\0'))) {
    throw new CoworkError('invalid_input', 'an app path may not leave the app (no .. segments)', { field: 'path', reason: 'outside_base' });
  }
  const path = segments.length === 0 ? '' : containedRelative(segments.join('/'), 'path', { url: true, baseName: 'the app' });
  return path === '' || raw.endsWith('/') ? (path === '' ? 'index.html' : `${path}/index.html`) : path;
}
