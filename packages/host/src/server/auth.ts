import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { CoworkError } from '../errors';

/**
 * The server's long-lived token. It is a bearer secret: whoever holds it can do anything the
 * workspace allows, so it lives only in the environment or in a 0600 file, is compared in constant
 * time, and never travels in a URL (browsers sign in with it once and get a session cookie).
 */

export const TOKEN_FILE = 'server-token';
export const TOKEN_ENV = 'COWORK_TOKEN';
const MIN_TOKEN_CHARS = 16;

export interface ResolvedToken {
  readonly token: string;
  /** Where it came from: the environment, the workspace file, or generated just now (and stored there). */
  readonly source: 'env' | 'file' | 'generated';
  /** The file that holds it, when it is not from the environment. */
  readonly path: string | null;
}

/** The token from `COWORK_TOKEN`, else from `<workspace>/server-token`, else a new one stored there with mode 0600. */
export function resolveToken(workspaceDir: string, env: Readonly<Record<string, string | undefined>>): ResolvedToken {
  const fromEnv = env[TOKEN_ENV]?.trim();
  if (fromEnv) return { token: checkToken(fromEnv, TOKEN_ENV), source: 'env', path: null };
  const path = join(workspaceDir, TOKEN_FILE);
  const token = randomBytes(32).toString('base64url');
  try {
    // `wx`: two servers starting at once on one workspace must not overwrite each other's token.
    writeFileSync(path, `${token}\n`, { mode: 0o600, flag: 'wx' });
    return { token, source: 'generated', path };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  // A token file someone loosened would be readable by other users of the machine.
  if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
  return { token: checkToken(readFileSync(path, 'utf8').trim(), path), source: 'file', path };
}

/** Constant-time comparison (hashing first makes the lengths equal, so length leaks nothing either). */
export function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}

/** Whether an address to listen on only accepts connections from this machine. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare === '::1') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare === '::ffff:127.0.0.1';
}

/**
 * Refuses to listen beyond loopback with a token nobody chose: a generated token printed to a
 * terminal is fine for one machine, not for a network.
 */
export function checkBind(host: string, env: Readonly<Record<string, string | undefined>>): void {
  if (isLoopbackHost(host) || env[TOKEN_ENV]?.trim()) return;
  throw new CoworkError(
    'invalid_input',
    `refusing to listen on ${host}, which is not a loopback address, without ${TOKEN_ENV}: set ${TOKEN_ENV} to a secret of at least ${MIN_TOKEN_CHARS} characters, or listen on 127.0.0.1`,
    { host, variable: TOKEN_ENV },
  );
}

function checkToken(token: string, from: string): string {
  if (token.length < MIN_TOKEN_CHARS || /\s/.test(token)) {
    throw new CoworkError('invalid_input', `the server token from ${from} must be at least ${MIN_TOKEN_CHARS} characters with no spaces`, {
      source: from,
      minLength: MIN_TOKEN_CHARS,
    });
  }
  return token;
}
