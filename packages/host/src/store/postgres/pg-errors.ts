import { CoworkError, isCoworkError } from '../../errors';

/** Socket errors that mean the server cannot be reached (or is gone). */
const UNREACHABLE_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ENOENT']);

/**
 * SQLSTATEs of a server that is not there for us: class 08 (connection exceptions), 57P01-57P03
 * (administrator or crash shutdown, not yet accepting connections), 53300 (too many connections).
 */
function isUnavailableState(state: string): boolean {
  return state.startsWith('08') || state === '57P01' || state === '57P02' || state === '57P03' || state === '53300';
}

/**
 * node-postgres reports a connection that died or never came up with these messages and no code
 * (the socket closed mid-query, a client already broken, the pool's connect timeout).
 */
const CONNECTION_LOST = /Connection terminated|not queryable|timeout exceeded when trying to connect|Connection terminated due to connection timeout/;

/** The SQLSTATE (`23505`) or errno (`ECONNREFUSED`) of an error from node-postgres. */
function codeOf(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** Whether this error means the connection to the server is gone (so the client must not be reused). */
export function isConnectionError(error: unknown): boolean {
  if (isCoworkError(error)) return error.code === 'store_unavailable';
  const code = codeOf(error);
  if (code !== undefined && (UNREACHABLE_ERRNOS.has(code) || isUnavailableState(code))) return true;
  // A refused connection to a host with several addresses arrives as an AggregateError of socket errors.
  if (error instanceof AggregateError) return error.errors.some(isConnectionError);
  return error instanceof Error && CONNECTION_LOST.test(error.message);
}

/**
 * An error from node-postgres as the host's coded error:
 * - the server unreachable or gone: `store_unavailable` (retryable; a write that failed this way
 *   may or may not have committed, so a retry carries its idempotency key);
 * - a lock not granted in time (55P03) or a deadlock (40P01): `store_busy`;
 * - a full disk (53100) or an I/O error (58030): `store_io_error`;
 * - a text PostgreSQL cannot hold (a NUL character: 22021, 22P05): `invalid_input`;
 * - anything else the server reported: `store_failed` with its SQLSTATE in `details.pgCode`.
 * Anything not from the database (a body's own error) is returned as it is.
 */
export function toPgStoreError(error: unknown): unknown {
  if (isCoworkError(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (isConnectionError(error)) {
    const code = codeOf(error) ?? (error instanceof AggregateError ? error.errors.map(codeOf).find((c) => c !== undefined) : undefined);
    return new CoworkError('store_unavailable', `the PostgreSQL server is unavailable: ${message || code || 'connection failed'}`, { pgCode: code ?? null }, { cause: error });
  }
  const state = codeOf(error);
  if (state === undefined || !/^[0-9A-Z]{5}$/.test(state)) return error;
  if (state === '55P03' || state === '40P01') {
    return new CoworkError('store_busy', `database error: ${message}`, { pgCode: state }, { cause: error });
  }
  if (state === '53100' || state === '58030') {
    return new CoworkError('store_io_error', `the database server's disk is full or failed; the write was not saved (${message})`, { pgCode: state }, { cause: error });
  }
  if (state === '22021' || state === '22P05') {
    return new CoworkError('invalid_input', `PostgreSQL cannot store this text (it holds a NUL character or an invalid sequence): ${message}`, { pgCode: state }, { cause: error });
  }
  return new CoworkError('store_failed', `database error: ${message}`, { pgCode: state }, { cause: error });
}
