import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import { SESSION_COOKIE } from './guard';
import { CLIENT_MESSAGES } from './ws/messages';
import { ErrorBody } from './schemas';
import './fastify-types';

interface DocumentedRoute {
  readonly method: string;
  readonly url: string;
  readonly schema: FastifySchema;
  readonly isPublic: boolean;
}

type Json = Record<string, unknown>;

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid body or parameters (invalid_input, invalid_json, invalid_op, invalid_content, unknown_kind)',
  401: 'No token, or a wrong one (unauthorized)',
  403: 'Host or Origin not allowed (forbidden_origin)',
  404: 'No such resource, candidate, task or route (not_found)',
  409: 'Conflict (revision_conflict with currentRevision and candidateId, candidate_closed, invalid_transition)',
  413: 'Body or content over the size limit (content_too_large)',
};

/**
 * Collects every route as it is declared, so that the OpenAPI document is built from the same
 * schemas that validate requests and cannot drift from them. Call before registering routes.
 */
export function collectRoutes(app: FastifyInstance): DocumentedRoute[] {
  const routes: DocumentedRoute[] = [];
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD' || route.url === '/ws') continue;
      routes.push({ method: method.toLowerCase(), url: route.url, schema: route.schema ?? {}, isPublic: route.config?.public === true });
    }
  });
  return routes;
}

/** The OpenAPI 3.1 document of the HTTP API, plus the WebSocket protocol as a described `GET /ws`. */
export function openApiDocument(routes: readonly DocumentedRoute[], version: string): Json {
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    const path = route.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    paths[path] = { ...paths[path], [route.method]: operation(route) };
  }
  paths['/ws'] = { get: webSocketOperation() };
  return {
    openapi: '3.1.0',
    info: { title: 'cowork host', version, description: 'Every request needs `Authorization: Bearer <token>` (or the session cookie set by POST /api/session). Errors are `{"error": {"code", "message", "hint", ...details}}`.' },
    components: {
      schemas: { Error: plain(ErrorBody) },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer' },
        session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE },
      },
    },
    security: [{ bearer: [] }, { session: [] }],
    paths,
  };
}

function operation(route: DocumentedRoute): Json {
  const { schema } = route;
  const parameters = [...parametersOf(schema.params, 'path'), ...parametersOf(schema.querystring, 'query')];
  const responses: Json = {};
  for (const [status, body] of Object.entries((schema.response ?? {}) as Record<string, unknown>)) {
    const json = plain(body);
    responses[status] = json.type === 'null' ? { description: 'No content' } : { description: 'Success', content: { 'application/json': { schema: json } } };
  }
  for (const status of errorStatuses(route)) {
    responses[String(status)] = { description: ERROR_TEXT[status] ?? 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  }
  return {
    ...(schema.summary ? { summary: schema.summary } : {}),
    ...(schema.description ? { description: schema.description } : {}),
    ...(schema.tags ? { tags: schema.tags } : {}),
    ...(route.isPublic ? { security: [] } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(schema.body ? { requestBody: { required: true, content: { 'application/json': { schema: plain(schema.body) } } } } : {}),
    responses,
  };
}

function errorStatuses(route: DocumentedRoute): number[] {
  const { schema } = route;
  const statuses = new Set<number>([403, ...(route.isPublic ? [] : [401]), ...(schema.errors ?? [])]);
  if (schema.body || schema.querystring || schema.params) statuses.add(400);
  if (schema.params) statuses.add(404);
  if (schema.body) statuses.add(413);
  return [...statuses].sort((a, b) => a - b);
}

function parametersOf(schema: unknown, where: 'path' | 'query'): Json[] {
  const json = plain(schema);
  const properties = (json.properties ?? {}) as Record<string, Json>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({ name, in: where, required: where === 'path' || required.has(name), schema: property }));
}

function webSocketOperation(): Json {
  return {
    summary: 'Live updates and edits over a WebSocket',
    description: [
      'Upgrade with the same Authorization header, the session cookie, or `?ticket=` from POST /api/ws-tickets (single use).',
      'Client messages (JSON text frames) are described by x-client-messages. `subscribe` sends every revision after sinceRevision in order as',
      '{"type":"revision", resourceId, revision, action, operator, op}, then each new one as it is committed; `commit` answers',
      '{"type":"committed"} or {"type":"error"} with the same codes as HTTP (revision_conflict with currentRevision and candidateId);',
      '`subscribe_task` streams {"type":"task_event", taskId, event}. A client that stops reading is closed with code 4008.',
    ].join(' '),
    tags: ['live'],
    'x-client-messages': Object.fromEntries(Object.entries(CLIENT_MESSAGES).map(([type, schema]) => [type, plain(schema)])),
    responses: { '101': { description: 'Switching protocols' }, '401': { description: ERROR_TEXT[401] }, '403': { description: ERROR_TEXT[403] } },
  };
}

/** A schema as plain JSON (TypeBox marks its schemas with symbol keys, which JSON drops). */
function plain(schema: unknown): Json {
  return schema === undefined ? {} : (JSON.parse(JSON.stringify(schema)) as Json);
}
