import { createHash, randomBytes } from 'node:crypto';

/**
 * Short-lived credentials derived from the token, so a browser never needs the token in a URL:
 * - a WebSocket ticket: single use, valid for `ticketTtlMs`, passed as `/ws?ticket=...` (browsers
 *   cannot set headers on a WebSocket); a leaked ticket is worthless once used or expired;
 * - a session: the id in an HttpOnly SameSite=Strict cookie, set by POST /api/session.
 * Only hashes of them are kept, so a heap dump does not hand out live credentials. They live in
 * this server's memory: a restart signs everyone out.
 */
export class Credentials {
  private readonly tickets = new Map<string, number>();
  private readonly sessions = new Map<string, number>();

  constructor(
    private readonly options: { ticketTtlMs: number; sessionTtlMs: number; maxSessions: number; now?: () => number },
  ) {}

  issueTicket(): { ticket: string; expiresAt: number } {
    this.sweep();
    const ticket = randomBytes(24).toString('base64url');
    const expiresAt = this.now() + this.options.ticketTtlMs;
    this.tickets.set(digest(ticket), expiresAt);
    return { ticket, expiresAt };
  }

  /** True once per issued ticket, and only before it expires. */
  redeemTicket(ticket: string): boolean {
    const key = digest(ticket);
    const expiresAt = this.tickets.get(key);
    this.tickets.delete(key);
    return expiresAt !== undefined && expiresAt > this.now();
  }

  openSession(): { sessionId: string; maxAgeSeconds: number } {
    this.sweep();
    // Oldest first: Map keeps insertion order.
    while (this.sessions.size >= this.options.maxSessions) this.sessions.delete(this.sessions.keys().next().value!);
    const sessionId = randomBytes(32).toString('base64url');
    this.sessions.set(digest(sessionId), this.now() + this.options.sessionTtlMs);
    return { sessionId, maxAgeSeconds: Math.floor(this.options.sessionTtlMs / 1000) };
  }

  hasSession(sessionId: string): boolean {
    const expiresAt = this.sessions.get(digest(sessionId));
    return expiresAt !== undefined && expiresAt > this.now();
  }

  closeSession(sessionId: string): void {
    this.sessions.delete(digest(sessionId));
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, at] of this.tickets) if (at <= now) this.tickets.delete(key);
    for (const [key, at] of this.sessions) if (at <= now) this.sessions.delete(key);
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
