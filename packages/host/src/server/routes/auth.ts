import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { CoworkError } from '../../errors';
import { sameSecret } from '../auth';
import { OWNER } from '../../identity/principal';
import type { ServerContext } from '../context';
import { cookieValue } from '../credentials';
import { SESSION_COOKIE } from '../guard';

const SessionBody = Type.Object({ token: Type.String({ minLength: 1, maxLength: 1000 }) }, { additionalProperties: false });
type SessionBody = Static<typeof SessionBody>;

/**
 * How a browser signs in without the token in a URL: it POSTs the token once in a JSON body and
 * gets an HttpOnly SameSite=Strict cookie holding a random session id (never the token); for its
 * WebSocket it asks for a single-use ticket, since browsers cannot set headers on an upgrade.
 */
export function registerAuthRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const tags = ['auth'];

  app.post(
    '/api/ws-tickets',
    {
      config: { viewer: true },
      schema: {
        summary: 'A single-use ticket for one WebSocket connection: /ws?ticket=...; it expires in seconds',
        tags,
        response: { 201: Type.Object({ ticket: Type.String(), expiresAt: Type.String() }) },
      },
    },
    async (request, reply) => {
      const { ticket, expiresAt } = ctx.credentials.issueTicket(request.principal);
      return reply.code(201).send({ ticket, expiresAt: new Date(expiresAt).toISOString() });
    },
  );

  app.post<{ Body: SessionBody }>(
    '/api/session',
    {
      config: { public: true },
      schema: { summary: "Sign in with the owner's token or a person's (in the body); sets an HttpOnly session cookie", tags, body: SessionBody, response: { 204: Type.Null() } },
    },
    async (request, reply) => {
      const principal = sameSecret(request.body.token, ctx.token) ? OWNER : await ctx.users.authenticate(request.body.token);
      if (principal === undefined) throw new CoworkError('unauthorized', 'wrong token');
      const { sessionId, maxAgeSeconds } = ctx.credentials.openSession(principal);
      void reply.header('set-cookie', `${SESSION_COOKIE}=${sessionId}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${maxAgeSeconds}`);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/api/session',
    { config: { viewer: true }, schema: { summary: 'Sign out: forget this session', tags, response: { 204: Type.Null() } } },
    async (request, reply) => {
      const session = cookieValue(request.headers.cookie, SESSION_COOKIE);
      if (session !== undefined) ctx.credentials.closeSession(session);
      void reply.header('set-cookie', `${SESSION_COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0`);
      return reply.code(204).send();
    },
  );
}
