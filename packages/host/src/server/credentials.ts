import { createHash, randomBytes } from 'node:crypto';
import type { Principal } from '../identity/principal';

/**
 * Short-lived credentials derived from the token, so a browser never needs the token in a URL:
 * - a WebSocket ticket: single use, valid for `ticketTtlMs`, passed as `/ws?ticket=...` (browsers
 *   cannot set headers on a WebSocket); a leaked ticket is worthless once used or expired;
 * - a session: the id in an HttpOnly SameSite=Strict cookie, set by POST /api/session.
 * Only hashes of them are kept, so a heap dump does not hand out live credentials. They live in
 * this server's memory: a restart signs everyone out. Each carries the principal whose credential
 * obtained it, so a person's session acts as that person and no one else.
 */
interface Held {
  readonly expiresAt: number;
  readonly principal: Principal;
}

export class Credentials {
  private readonly tickets = new Map<string, Held>();
  private readonly sessions = new Map<string, Held>();

  constructor(
    private readonly options: { ticketTtlMs: number; sessionTtlMs: number; maxSessions: number; now?: () => number },
  ) {}

  issueTicket(principal: Principal): { ticket: string; expiresAt: number } {
    this.sweep();
    const ticket = randomBytes(24).toString('base64url');
    const expiresAt = this.now() + this.options.ticketTtlMs;
    this.tickets.set(digest(ticket), { expiresAt, principal });
    return { ticket, expiresAt };
  }

  /** The ticket's principal, once per issued ticket and only before it expires. */
  redeemTicket(ticket: string): Principal | undefined {
    const key = digest(ticket);
    const held = this.tickets.get(key);
    this.tickets.delete(key);
    return held !== undefined && held.expiresAt > this.now() ? held.principal : undefined;
  }

  openSession(principal: Principal): { sessionId: string; maxAgeSeconds: number } {
    this.sweep();
    // Oldest first: Map keeps insertion order.
    while (this.sessions.size >= this.options.maxSessions) this.sessions.delete(this.sessions.keys().next().value!);
    const sessionId = randomBytes(32).toString('base64url');
    this.sessions.set(digest(sessionId), { expiresAt: this.now() + this.options.sessionTtlMs, principal });
    return { sessionId, maxAgeSeconds: Math.floor(this.options.sessionTtlMs / 1000) };
  }

  /** The session's principal while it is open. */
  session(sessionId: string): Principal | undefined {
    const held = this.sessions.get(digest(sessionId));
    return held !== undefined && held.expiresAt > this.now() ? held.principal : undefined;
  }

  closeSession(sessionId: string): void {
    this.sessions.delete(digest(sessionId));
  }

  /** Forgets every session and ticket of a person (their token was revoked). */
  forget(name: string): void {
    for (const map of [this.tickets, this.sessions]) {
      for (const [key, held] of map) if (held.principal.kind === 'person' && held.principal.name === name) map.delete(key);
    }
  }

  private sweep(): void {
    const now = this.now();
    for (const map of [this.tickets, this.sessions]) for (const [key, held] of map) if (held.expiresAt <= now) map.delete(key);
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }
}

/** The value of one cookie from a `Cookie` header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

function digest(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
