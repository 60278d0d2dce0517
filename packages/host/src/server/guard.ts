import type { FastifyRequest } from 'fastify';
import { CoworkError } from '../errors';
import { checkHostAndOrigin, type HostAllowList } from './access';
import { bearerToken, sameSecret } from './auth';
import { cookieValue, type Credentials } from './credentials';
import './fastify-types';

export const SESSION_COOKIE = 'cowork_session';

export interface GuardDeps {
  readonly token: string;
  readonly allowList: HostAllowList;
  readonly credentials: Credentials;
}

/**
 * Runs first on every request, WebSocket upgrades included (they pass through fastify's routing
 * before the upgrade, so a refused upgrade gets a plain HTTP 401 or 403 and never a socket).
 * Host and Origin are checked before credentials, so a rebinding page learns nothing either way.
 */
export function guard(deps: GuardDeps): (request: FastifyRequest) => Promise<void> {
  return async (request) => {
    const config = request.routeOptions.config;
    // A sandboxed app's own requests come from an opaque origin (`Origin: null`); its keyed file
    // route only reads that app's files, so only the Host check (DNS rebinding) applies there.
    const origin = config.app === true && request.headers.origin === 'null' ? undefined : request.headers.origin;
    checkHostAndOrigin(deps.allowList, request.headers.host, origin);
    if (config.public === true) return;
    if (authenticated(deps, request, config.ticket === true)) return;
    throw new CoworkError('unauthorized', 'this request needs `Authorization: Bearer <token>` or a signed-in session');
  };
}

function authenticated(deps: GuardDeps, request: FastifyRequest, ticketAllowed: boolean): boolean {
  const header = request.headers.authorization;
  // A wrong token is a wrong token: it does not fall back to a cookie that happens to be there.
  if (header !== undefined) {
    const given = bearerToken(header);
    return given !== undefined && sameSecret(given, deps.token);
  }
  const session = cookieValue(request.headers.cookie, SESSION_COOKIE);
  if (session !== undefined && deps.credentials.hasSession(session)) return true;
  if (!ticketAllowed) return false;
  const ticket = (request.query as Record<string, unknown> | undefined)?.ticket;
  return typeof ticket === 'string' && deps.credentials.redeemTicket(ticket);
}

/**
 * Headers on every answer: nothing is cached (answers carry workspace content), nothing is sniffed
 * into another type, no page of this server may be framed by another site (clickjacking), and
 * no URL of it leaks in a Referer.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'content-security-policy': "default-src 'self'; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
};
