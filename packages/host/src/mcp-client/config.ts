import { join } from 'node:path';
import { CoworkError } from '../errors';
import { readJsonFile, writeJsonAtomic } from '../util/atomic-file';
import { isPlainObject } from '../util/json';
import { checkPathText } from '../util/paths';

/**
 * `<workspace>/mcp.json`: the MCP servers mounted in a workspace, in the format other MCP clients
 * use (`{"mcpServers": {"name": {...}}}`), so an existing file can be copied in as it is. Our own
 * additions are optional fields of an entry (`sampling`, `timeoutMs`); unknown fields are refused so
 * a typo does not silently turn a setting off.
 */

export const MCP_CONFIG_FILE = 'mcp.json';

export interface StdioServerConfig {
  readonly command: string;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

export interface HttpServerConfig {
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
}

export type McpServerConfig = (StdioServerConfig | HttpServerConfig) & {
  /** Let the server ask our model for completions (`sampling/createMessage`); refused unless true. */
  readonly sampling?: boolean;
  /** Per-call limit in ms (default 60 s). */
  readonly timeoutMs?: number;
};

export interface McpConfig {
  readonly mcpServers: Readonly<Record<string, McpServerConfig>>;
}

/** Server names become tool-name prefixes (`everything__echo`) and plugin names (`mcp.everything`). */
export const SERVER_NAME = /^[a-z][a-z0-9_-]{0,31}$/;

const COMMON_KEYS = ['sampling', 'timeoutMs'];
const STDIO_KEYS = new Set(['command', 'args', 'env', 'cwd', ...COMMON_KEYS]);
const HTTP_KEYS = new Set(['url', 'headers', 'type', ...COMMON_KEYS]);

export function isHttpConfig(config: McpServerConfig): config is HttpServerConfig & McpServerConfig {
  return typeof (config as HttpServerConfig).url === 'string';
}

export function configPath(workspaceDir: string): string {
  return join(workspaceDir, MCP_CONFIG_FILE);
}

/** The problems with one server entry; empty means valid. */
export function checkServer(name: string, value: unknown): string[] {
  const at = `server ${JSON.stringify(name)}`;
  const problems: string[] = [];
  if (!SERVER_NAME.test(name)) problems.push(`${at}: the name must be lower-case letters, digits, - or _, starting with a letter, at most 32 characters`);
  if (!isPlainObject(value)) return [...problems, `${at}: must be an object with "command" (stdio) or "url" (Streamable HTTP)`];
  const entry = value as Record<string, unknown>;
  const hasCommand = 'command' in entry;
  const hasUrl = 'url' in entry;
  if (hasCommand === hasUrl) return [...problems, `${at}: give either "command" (stdio) or "url" (Streamable HTTP), not ${hasCommand ? 'both' : 'neither'}`];
  const allowed = hasCommand ? STDIO_KEYS : HTTP_KEYS;
  for (const key of Object.keys(entry)) if (!allowed.has(key)) problems.push(`${at}: unknown field ${JSON.stringify(key)} (allowed: ${[...allowed].join(', ')})`);
  if (hasCommand) {
    if (typeof entry.command !== 'string' || entry.command.trim() === '') problems.push(`${at}: "command" must be a non-empty string`);
    if (entry.args !== undefined && (!Array.isArray(entry.args) || !entry.args.every((a) => typeof a === 'string'))) problems.push(`${at}: "args" must be an array of strings`);
    if (entry.cwd !== undefined && typeof entry.cwd !== 'string') problems.push(`${at}: "cwd" must be a string`);
    else if (entry.cwd !== undefined) problems.push(...cwdProblems(entry.cwd, at));
    problems.push(...checkStringMap(entry.env, `${at}: "env"`));
  } else {
    if (typeof entry.url !== 'string' || !isHttpUrl(entry.url)) problems.push(`${at}: "url" must be an http(s) URL`);
    if (entry.type !== undefined && entry.type !== 'http' && entry.type !== 'streamable-http') problems.push(`${at}: "type" must be "http" (Streamable HTTP) when given`);
    problems.push(...checkStringMap(entry.headers, `${at}: "headers"`));
  }
  if (entry.sampling !== undefined && typeof entry.sampling !== 'boolean') problems.push(`${at}: "sampling" must be true or false`);
  if (entry.timeoutMs !== undefined && !(Number.isInteger(entry.timeoutMs) && (entry.timeoutMs as number) > 0)) problems.push(`${at}: "timeoutMs" must be a positive integer`);
  return problems;
}

/** Checks a whole parsed file; throws `invalid_config` listing every problem. */
export function parseConfig(value: unknown, path: string): McpConfig {
  const problems: string[] = [];
  if (!isPlainObject(value)) problems.push('the file must hold a JSON object like {"mcpServers": {...}}');
  else {
    const servers = (value as Record<string, unknown>).mcpServers;
    if (servers === undefined) return { mcpServers: {} };
    if (!isPlainObject(servers)) problems.push('"mcpServers" must be an object of servers by name');
    else for (const [name, entry] of Object.entries(servers as Record<string, unknown>)) problems.push(...checkServer(name, entry));
  }
  if (problems.length > 0) throw invalidConfig(path, problems);
  return value as unknown as McpConfig;
}

/** The workspace's config; an empty one when the file does not exist. */
export function readConfig(workspaceDir: string): McpConfig {
  const path = configPath(workspaceDir);
  let parsed: unknown;
  try {
    parsed = readJsonFile<unknown>(path);
  } catch (error) {
    throw invalidConfig(path, [`not valid JSON: ${(error as Error).message}`]);
  }
  return parsed === undefined ? { mcpServers: {} } : parseConfig(parsed, path);
}

/** Adds a server: checked first; a bad entry or a taken name writes nothing. */
export function addServer(workspaceDir: string, name: string, server: unknown): McpConfig {
  const path = configPath(workspaceDir);
  const problems = checkServer(name, server);
  if (problems.length > 0) throw invalidConfig(path, problems);
  const config = readConfig(workspaceDir);
  if (Object.prototype.hasOwnProperty.call(config.mcpServers, name)) {
    throw new CoworkError('already_exists', `an MCP server named ${JSON.stringify(name)} is already mounted; remove it first to change it`, { name });
  }
  const next: McpConfig = { ...config, mcpServers: { ...config.mcpServers, [name]: server as McpServerConfig } };
  writeJsonAtomic(path, next);
  return next;
}

/** Removes a server; `not_found` when there is none by that name. */
export function removeServer(workspaceDir: string, name: string): McpConfig {
  const config = readConfig(workspaceDir);
  requireServer(config, name);
  const servers = { ...config.mcpServers };
  delete servers[name];
  const next: McpConfig = { ...config, mcpServers: servers };
  writeJsonAtomic(configPath(workspaceDir), next);
  return next;
}

export function requireServer(config: McpConfig, name: string): McpServerConfig {
  const server = Object.prototype.hasOwnProperty.call(config.mcpServers, name) ? config.mcpServers[name] : undefined;
  if (!server) {
    throw new CoworkError('not_found', `no MCP server named ${JSON.stringify(name)}; mounted: ${Object.keys(config.mcpServers).join(', ') || 'none'}`, {
      name,
      known: Object.keys(config.mcpServers),
    });
  }
  return server;
}

/** A config entry with header and env values masked: they often hold tokens. */
export function redacted(server: McpServerConfig): Record<string, unknown> {
  const mask = (map: Readonly<Record<string, string>> | undefined): Record<string, string> | undefined =>
    map && Object.fromEntries(Object.keys(map).map((k) => [k, '***']));
  return isHttpConfig(server)
    ? { ...server, headers: mask(server.headers) }
    : { ...server, env: mask((server as StdioServerConfig).env) };
}

/**
 * A stdio server's working folder is the person's choice (its command is anyway), so it is not held
 * inside the workspace; its text still goes through the one path check (util/paths): no NUL, no
 * over-long path, no look-alike dots.
 */
function cwdProblems(cwd: string, at: string): string[] {
  try {
    checkPathText(cwd, 'cwd');
    return [];
  } catch (error) {
    return [`${at}: "cwd" ${String((error as { details?: { reason?: unknown } }).details?.reason ?? 'is not a usable path')}`];
  }
}

function invalidConfig(path: string, problems: string[]): CoworkError {
  return new CoworkError('invalid_config', `${path} is not valid: ${problems.join('; ')}`, { path, problems });
}

function checkStringMap(value: unknown, at: string): string[] {
  if (value === undefined) return [];
  if (!isPlainObject(value) || !Object.values(value as object).every((v) => typeof v === 'string')) return [`${at} must be an object of strings`];
  return [];
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
