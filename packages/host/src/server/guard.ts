import type { FastifyRequest } from 'fastify';
import { CoworkError } from '../errors';
import { checkHostAndOrigin, type HostAllowList } from './access';
import { bearerToken, sameSecret } from './auth';
import { cookieValue, type Credentials } from './credentials';
import { OWNER, requireWriter, type Principal } from '../identity/principal';
import type { UserDirectory } from '../identity/user-directory';
import './fastify-types';

export const SESSION_COOKIE = 'cowork_session';

export interface GuardDeps {
  readonly token: string;
  readonly allowList: HostAllowList;
  readonly credentials: Credentials;
  readonly users: UserDirectory;
}

/** Methods that change nothing; a viewer may use only these (and routes marked `viewer`). */
const READING_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Runs first on every request, WebSocket upgrades included (they pass through fastify's routing
 * before the upgrade, so a refused upgrade gets a plain HTTP 401 or 403 and never a socket).
 * Host and Origin are checked before credentials, so a rebinding page learns nothing either way.
 * It leaves the caller's principal on the request; routes take the operator from it.
 */
export function guard(deps: GuardDeps): (request: FastifyRequest) => Promise<void> {
  return async (request) => {
    const config = request.routeOptions.config;
    // A sandboxed app's own requests come from an opaque origin (`Origin: null`); its keyed file
    // route only reads that app's files, so only the Host check (DNS rebinding) applies there.
    const origin = config.app === true && request.headers.origin === 'null' ? undefined : request.headers.origin;
    checkHostAndOrigin(deps.allowList, request.headers.host, origin);
    if (config.public === true) return;
    const principal = await principalOf(deps, request, config.ticket === true);
    if (principal === undefined) {
      throw new CoworkError('unauthorized', 'this request needs `Authorization: Bearer <token>` or a signed-in session');
    }
    if (!READING_METHODS.has(request.method) && config.viewer !== true) requireWriter(principal);
    request.principal = principal;
  };
}

/**
 * Whose credential the request carries: the server token is the owner's, a person's token is
 * looked up by its hash. A session or ticket carries the principal that opened it, and a person's
 * is checked again against the store, so a token revoked by any process stops its sessions at once.
 */
async function principalOf(deps: GuardDeps, request: FastifyRequest, ticketAllowed: boolean): Promise<Principal | undefined> {
  const header = request.headers.authorization;
  // A wrong token is a wrong token: it does not fall back to a cookie that happens to be there.
  if (header !== undefined) {
    const given = bearerToken(header);
    if (given === undefined) return undefined;
    return sameSecret(given, deps.token) ? OWNER : deps.users.authenticate(given);
  }
  const session = cookieValue(request.headers.cookie, SESSION_COOKIE);
  let held = session !== undefined ? deps.credentials.session(session) : undefined;
  if (held === undefined && ticketAllowed) {
    const ticket = (request.query as Record<string, unknown> | undefined)?.ticket;
    if (typeof ticket === 'string') held = deps.credentials.redeemTicket(ticket);
  }
  if (held?.kind === 'person' && !(await deps.users.stillActive(held.name))) {
    deps.credentials.forget(held.name);
    return undefined;
  }
  return held;
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
