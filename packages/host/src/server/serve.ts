import { CoworkError, isCoworkError } from '../errors';
import type { Host } from '../host';
import { createModelProvider, modelConfigFromEnv } from '../models/config';
import type { ModelProvider } from '../models/types';
import { resolveToken, type ResolvedToken } from './auth';
import { createServer, type CoworkServer, type ServerOptions } from './create-server';

export interface Serving {
  readonly server: CoworkServer;
  readonly url: string;
  readonly port: number;
  readonly token: ResolvedToken;
  /** Why tasks cannot run (no model configured), or null when they can. */
  readonly modelProblem: CoworkError | null;
}

/**
 * What `cowork serve` does once the host is open: find or make the token, set up the model if one
 * is configured (tasks need it; resources do not), build the server and listen. The caller checked
 * the bind address first (`checkBind`) and closes the server, then the host.
 */
export async function serveHost(
  host: Host,
  options: { env: Readonly<Record<string, string | undefined>>; listenHost: string; port: number } & Pick<ServerOptions, 'onError' | 'live'>,
): Promise<Serving> {
  const token = resolveToken(host.workspaceDir, options.env);
  const model = modelFrom(options.env);
  // Mounted MCP servers whose mcp.json entry enables sampling may ask this model for completions.
  host.mcp.lendModel(model.provider);
  const server = await createServer({
    host,
    token: token.token,
    listenHost: options.listenHost,
    port: options.port,
    provider: model.provider,
    providerError: model.problem ?? undefined,
    // As `cowork run` does: the configured output limit applies to every agent's turns.
    runtime: model.maxOutputTokens === undefined ? {} : { maxOutputTokens: model.maxOutputTokens },
    onError: options.onError,
    live: options.live,
    requestTimeoutMs: positiveIntegerFrom(options.env, 'COWORK_REQUEST_TIMEOUT_MS'),
    takeoverPollMs: takeoverPollFrom(options.env),
  });
  try {
    const { url, port } = await server.listen();
    return { server, url, port, token, modelProblem: model.problem };
  } catch (error) {
    await server.close();
    throw listenError(error, options.listenHost, options.port);
  }
}

/** A port in use or an address not on this machine is the caller's choice to fix, not a crash. */
function listenError(error: unknown, host: string, port: number): unknown {
  const code = (error as NodeJS.ErrnoException)?.code;
  const why: Record<string, string> = {
    EADDRINUSE: 'the port is in use (pick another --port, or 0 for a free one)',
    EACCES: 'permission denied (ports below 1024 need privileges)',
    EADDRNOTAVAIL: 'the address is not one of this machine',
  };
  if (typeof code !== 'string' || !why[code]) return error;
  return new CoworkError('invalid_input', `cannot listen on ${host}:${port}: ${why[code]}`, { host, port, cause: code });
}

export function modelFrom(env: Readonly<Record<string, string | undefined>>): { provider?: ModelProvider; problem: CoworkError | null; maxOutputTokens?: number } {
  const config = modelConfigFromEnv(env);
  try {
    return { provider: createModelProvider(config), problem: null, maxOutputTokens: config.maxOutputTokens };
  } catch (error) {
    // No model is a normal way to run a server (people edit resources); a malformed setting is not.
    if (isCoworkError(error) && error.code === 'model_not_configured') return { problem: error };
    throw error;
  }
}

/**
 * COWORK_TAKEOVER_POLL_MS: how often this server looks for tasks whose host died (task-takeover.ts);
 * 0 never. Unset: a third of the lease (COWORK_LEASE_MS).
 */
function takeoverPollFrom(env: Readonly<Record<string, string | undefined>>): number | undefined {
  const text = env.COWORK_TAKEOVER_POLL_MS;
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new CoworkError('invalid_input', `COWORK_TAKEOVER_POLL_MS must be a whole number of milliseconds (0 turns the takeover of dead hosts' tasks off), got ${JSON.stringify(text)}`, {
      field: 'COWORK_TAKEOVER_POLL_MS',
      received: text,
    });
  }
  return value;
}

/** A positive whole number from the environment, or undefined when the variable is unset. */
function positiveIntegerFrom(env: Readonly<Record<string, string | undefined>>, name: string): number | undefined {
  const text = env[name];
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new CoworkError('invalid_input', `${name} must be a whole number of milliseconds above 0, got ${JSON.stringify(text)}`, { field: name, received: text });
  }
  return value;
}
