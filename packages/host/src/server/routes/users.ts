import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { personOperator, requireOwner } from '../../identity/principal';
import type { ServerContext } from '../context';
import type { LiveHub } from '../ws/hub';

const NameParams = Type.Object({ name: Type.String({ minLength: 1, maxLength: 128 }) });
type NameParams = Static<typeof NameParams>;

const AddBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 128, description: 'letters, digits, ., _, @ or -; the person acts as human:<name>' }),
    role: Type.Optional(Type.Union([Type.Literal('editor'), Type.Literal('viewer')], { description: 'editor (default) reads and writes; viewer reads and subscribes' })),
  },
  { additionalProperties: false },
);
type AddBody = Static<typeof AddBody>;

const User = Type.Object({
  name: Type.String(),
  operator: Type.String(),
  role: Type.String(),
  createdAt: Type.String(),
  revokedAt: Type.Union([Type.String(), Type.Null()]),
});

const Me = Type.Object({
  kind: Type.Union([Type.Literal('owner'), Type.Literal('person')]),
  operator: Type.String(),
  role: Type.String(),
});

/**
 * The people of a workspace. Only the owner (the server token) adds and revokes; a new person's
 * token is in the answer once and never again. Revoking ends the person's sessions and closes
 * their WebSockets at once.
 */
export function registerUserRoutes(app: FastifyInstance, ctx: ServerContext, live: LiveHub): void {
  const tags = ['users'];

  app.get('/api/me', { schema: { summary: 'Who this credential is: the owner, or a person and their role', tags, response: { 200: Me } } }, async (request) => {
    const p = request.principal;
    return p.kind === 'owner' ? { kind: 'owner', operator: ctx.defaultOperator, role: 'owner' } : { kind: 'person', operator: personOperator(p.name), role: p.role };
  });

  app.get('/api/users', { schema: { summary: 'The people of the workspace (never their tokens)', tags, response: { 200: Type.Object({ users: Type.Array(User) }) } } }, async () => ({
    users: await ctx.users.list(),
  }));

  app.post<{ Body: AddBody }>(
    '/api/users',
    {
      schema: {
        summary: 'Add a person (owner only); the answer holds their token, shown this once',
        tags,
        body: AddBody,
        errors: [403, 409],
        response: { 201: Type.Object({ user: User, token: Type.String() }) },
      },
    },
    async (request, reply) => {
      requireOwner(request.principal, 'add people');
      return reply.code(201).send(await ctx.users.add(request.body.name, request.body.role ?? 'editor'));
    },
  );

  app.delete<{ Params: NameParams }>(
    '/api/users/:name',
    { schema: { summary: "Revoke a person's token (owner only): refused at once, sessions and sockets included", tags, params: NameParams, errors: [403, 404], response: { 200: Type.Object({ user: User }) } } },
    async (request) => {
      requireOwner(request.principal, 'revoke people');
      const user = await ctx.users.revoke(request.params.name);
      ctx.credentials.forget(user.name);
      live.revoke(user.name);
      return { user };
    },
  );
}
