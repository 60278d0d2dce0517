import pg from 'pg';
import { CoworkError } from '../../errors';

/** Where a PostgreSQL store connects and how many connections it may hold. */
export interface PoolSettings {
  readonly url: string;
  /** Most connections held at once: one writes a batch, the others serve reads (default 10). */
  readonly poolSize?: number;
  /** How long to wait for a connection before answering `store_unavailable` (default 10 s). */
  readonly connectTimeoutMs?: number;
}

const INT8_OID = 20;

/**
 * 64-bit integers (sequence numbers, epoch milliseconds, counts) as JavaScript numbers, as the
 * SQLite store returns them; every value the host stores is far below 2^53, and one that is not
 * fails loudly instead of losing digits.
 */
function parseInt8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new CoworkError('store_failed', `a stored integer ${text} is beyond JavaScript's safe range`, { value: text });
  return value;
}

const types = {
  getTypeParser: ((oid: number, format?: string) => (oid === INT8_OID && format !== 'binary' ? parseInt8 : pg.types.getTypeParser(oid, format as 'text'))) as typeof pg.types.getTypeParser,
};

/** The URL checked: `postgres://` or `postgresql://`, anything else is `invalid_input`. */
export function checkDatabaseUrl(url: unknown): URL {
  let parsed: URL | undefined;
  try {
    parsed = typeof url === 'string' ? new URL(url) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:')) {
    throw new CoworkError('invalid_input', `the database URL must look like postgres://user@host:5432/database, not ${JSON.stringify(typeof url === 'string' ? redactUrl(url) : url)}`, { field: 'databaseUrl' });
  }
  return parsed;
}

/** The URL without its password, for descriptions and messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable URL)';
  }
}

/**
 * A pool that never crashes the process: a connection that dies while idle or while checked out
 * emits `error` on the pool or the client, and an unhandled `error` event would end the host. The
 * failure itself reaches the caller as the query's rejection (see pg-errors.ts).
 */
export function createPool(settings: PoolSettings): pg.Pool {
  checkDatabaseUrl(settings.url);
  const poolSize = settings.poolSize ?? 10;
  if (!Number.isInteger(poolSize) || poolSize < 2 || poolSize > 1000) {
    // Two at least: a batch holds one connection while reads need another.
    throw new CoworkError('invalid_input', `poolSize must be a whole number from 2 to 1000, not ${JSON.stringify(poolSize)}`, { field: 'poolSize' });
  }
  const pool = new pg.Pool({
    connectionString: settings.url,
    max: poolSize,
    connectionTimeoutMillis: settings.connectTimeoutMs ?? 10_000,
    keepAlive: true,
    // Statements sent without waiting for the one before (BEGIN with a read's first query, a batch's
    // savepoints with the next body's first statement) share a round trip.
    pipeline: true,
    application_name: 'cowork',
    types,
  });
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}
