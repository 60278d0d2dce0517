import { request as httpRequest, Agent } from 'node:http';
import { ERROR_CODES, isErrorCode } from '../errors/codes';
import { seededRandom } from '../util/random';

/**
 * A schema-driven fuzzer of a running server's HTTP API. It reads the server's OpenAPI document and
 * sends every route requests built from its own schemas: mostly right, often nearly right (one field
 * of the wrong type, too long, missing, nested thousands deep, or a name like `__proto__`), sometimes
 * nothing like it, with path parameters drawn from ids that exist and from strings that break naive
 * code (`%00`, CR LF, `..`, non-ASCII, percent-encodings that do not decode). A case fails when the
 * server answers 5xx, answers an error without the documented shape or with a code outside the
 * error registry (or at another status than the registry's for that code), or does not answer in
 * time.
 *
 * Deterministic for a seed, so a failing case can be replayed.
 */

export interface RouteFuzzOptions {
  /** The server's base URL, `http://127.0.0.1:PORT`. */
  readonly url: string;
  /** Its bearer token. */
  readonly token: string;
  /** Cases per route (default 300). */
  readonly casesPerRoute?: number;
  /** Fewer cases for costly routes, by `METHOD /path` as the OpenAPI document writes it. */
  readonly casesFor?: Readonly<Record<string, number>>;
  readonly seed?: number;
  /**
   * Values that exist or fit, by parameter or field name (`id`, `format`, `op`): cases that reach
   * past the lookups and checks. Path parameters take the strings among them.
   */
  readonly known?: Known;
  /** Routes left out, as `METHOD /path`. */
  readonly skip?: readonly string[];
  /** No answer within this is a failure (default 30 s). */
  readonly timeoutMs?: number;
  /** Called with every answer, in the order sent (the fuzzer sends one request at a time). */
  readonly onAnswer?: (answer: FuzzAnswer) => void;
}

/** One case and the server's answer to it. */
export interface FuzzAnswer {
  readonly route: string;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly body: string;
}

export interface FuzzFailure {
  readonly route: string;
  readonly method: string;
  readonly path: string;
  readonly body?: string;
  readonly status: number | 'timeout' | 'connection';
  readonly response: string;
}

export interface RouteFuzzReport {
  readonly routes: { readonly route: string; readonly cases: number; readonly statuses: Record<string, number> }[];
  readonly failures: FuzzFailure[];
  readonly cases: number;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Known = Readonly<Record<string, readonly Json[]>>;
type Schema = Record<string, unknown>;
interface Operation {
  readonly parameters?: { name: string; in: 'path' | 'query'; required?: boolean; schema: Schema }[];
  readonly requestBody?: { content: Record<string, { schema: Schema }> };
}

/** Strings that have broken servers: encodings, names JavaScript objects already have, paths, sizes. */
const NASTY = [
  '',
  ' ',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  '..',
  '../../etc/passwd',
  '%2e%2e%2f',
  '\u0000',
  'a\r\nSet-Cookie: x=1',
  '\n',
  'é',
  '✓ ☃ 𝄞',
  '\uD800',
  '\u202E',
  'null',
  'true',
  '-1',
  '1e309',
  'NaN',
  '0x10',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '${process.exit()}',
  'x'.repeat(300),
  'x'.repeat(5000),
];
/** Raw path segments sent as they are: percent-encodings that do not decode, dot segments, doubled slashes. */
const RAW_SEGMENTS = ['%ZZ', '%FF', '%C0%AF', '%00', '%0d%0a', '..', '.', '%2e%2e', '', 'a//b', '%E2%9C%93', '%F0%9F%98%80', '%ED%A0%80'];

export async function fuzzRoutes(options: RouteFuzzOptions): Promise<RouteFuzzReport> {
  const random = seededRandom(options.seed ?? 1);
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  const base = new URL(options.url);
  const send = (method: string, path: string, body: Buffer | undefined, contentType: string | undefined): Promise<{ status: number | 'timeout' | 'connection'; text: string }> =>
    new Promise((resolve) => {
      const headers: Record<string, string> = { authorization: `Bearer ${options.token}` };
      if (body) {
        headers['content-type'] = contentType ?? 'application/json';
        headers['content-length'] = String(body.length);
      }
      let request: ReturnType<typeof httpRequest>;
      try {
        request = httpRequest({ agent, host: base.hostname, port: base.port, method, path, headers, timeout: options.timeoutMs ?? 30_000 }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
          response.on('error', () => resolve({ status: 'connection', text: '' }));
        });
      } catch (error) {
        // Node refuses to send some paths at all (characters a URL cannot hold): nothing to test.
        resolve({ status: 0, text: String(error) });
        return;
      }
      request.on('timeout', () => {
        request.destroy();
        resolve({ status: 'timeout', text: '' });
      });
      request.on('error', (error) => resolve({ status: 'connection', text: String(error) }));
      request.end(body);
    });

  const document = JSON.parse((await send('GET', '/api/openapi.json', undefined, undefined)).text) as { paths: Record<string, Record<string, Operation>> };
  const report: { -readonly [K in keyof RouteFuzzReport]: RouteFuzzReport[K] } = { routes: [], failures: [], cases: 0 };
  try {
    for (const [template, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const route = `${method.toUpperCase()} ${template}`;
        if (template === '/ws' || options.skip?.includes(route)) continue;
        const cases = options.casesFor?.[route] ?? options.casesPerRoute ?? 300;
        const statuses: Record<string, number> = {};
        for (let i = 0; i < cases; i++) {
          const built = buildCase(random, template, operation, options.known ?? {});
          const answer = await send(method.toUpperCase(), built.path, built.body, built.contentType);
          if (answer.status === 0) continue;
          statuses[String(answer.status)] = (statuses[String(answer.status)] ?? 0) + 1;
          report.cases++;
          if (typeof answer.status === 'number') options.onAnswer?.({ route, method: method.toUpperCase(), path: built.path, status: answer.status, body: answer.text });
          if (isFailure(answer.status, answer.text, template)) {
            report.failures.push({ route, method: method.toUpperCase(), path: built.path, body: built.body?.toString('utf8').slice(0, 500), status: answer.status, response: answer.text.slice(0, 500) });
          }
        }
        report.routes.push({ route, cases, statuses });
      }
    }
  } finally {
    agent.destroy();
  }
  return report;
}

function isFailure(status: number | 'timeout' | 'connection', text: string, template: string): boolean {
  if (typeof status !== 'number' || status >= 500) return true;
  if (status < 400) return false;
  // Every error, whoever raised it (a route, fastify, a plugin), has the one documented shape.
  try {
    const error = (JSON.parse(text) as { error?: Record<string, unknown> }).error;
    if (!(error && typeof error.code === 'string' && typeof error.message === 'string' && typeof error.hint === 'string')) return true;
    // Every code is the registry's, and answered at the registry's status for it.
    return !isErrorCode(error.code) || ERROR_CODES[error.code].status !== status;
  } catch {
    return !template.startsWith('/apps/') || status !== 404;
  }
}

interface BuiltCase {
  readonly path: string;
  readonly body?: Buffer;
  readonly contentType?: string;
}

function buildCase(random: () => number, template: string, operation: Operation, known: Known): BuiltCase {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const chance = (p: number): boolean => random() < p;
  const parameters = operation.parameters ?? [];
  let path = template;
  for (const parameter of parameters.filter((p) => p.in === 'path')) {
    const value = pathValue(random, parameter.name, parameter.schema, known);
    path = parameter.name === '*' ? path.replace('*', value) : path.replace(`{${parameter.name}}`, value);
  }
  const query: string[] = [];
  for (const parameter of parameters.filter((p) => p.in === 'query')) {
    if (!parameter.required && chance(0.4)) continue;
    const value = chance(0.7) ? valueFor(random, parameter.schema, parameter.name, known, 0) : pick<Json>([...NASTY, -1, 2 ** 53, 1.5, true]);
    query.push(`${encode(parameter.name)}=${encode(typeof value === 'string' ? value : JSON.stringify(value))}`);
  }
  if (chance(0.1)) query.push(`${encode(pick(NASTY))}=${encode(pick(NASTY))}`);
  if (query.length > 0) path += `?${query.join('&')}`;

  const content = operation.requestBody?.content ?? {};
  const json = content['application/json']?.schema;
  if (json) {
    const roll = random();
    if (roll < 0.08) return { path, body: Buffer.from(pick(['{', '{"a":', '[1,', 'nul', '"\\u12"', '{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"x":1}}}', '\u0000', '1e999'])) };
    if (roll < 0.12) return { path, body: Buffer.from(JSON.stringify(valueFor(random, json, '', known, 0))), contentType: pick(['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', 'multipart/form-data; boundary=x']) };
    const valid = valueFor(random, json, '', known, 0);
    if (roll >= 0.55 && roll < 0.62) return { path, body: Buffer.from(deeplyNested(random, valid)) };
    return { path, body: Buffer.from(JSON.stringify(roll < 0.55 ? valid : mutate(random, valid, known))) };
  }
  if (content['application/octet-stream'] || Object.keys(content).length > 0 || template.endsWith('/import')) {
    const size = pick([0, 1, 22, 100, 4096, 70_000]);
    const bytes = Buffer.alloc(size);
    for (let i = 0; i < size; i++) bytes[i] = Math.floor(random() * 256);
    // Sometimes the start of a zip (local file header), so that readers of zips get past the magic.
    if (size >= 4 && chance(0.5)) bytes.write('PK\u0003\u0004', 0, 'latin1');
    return { path, body: bytes, contentType: 'application/octet-stream' };
  }
  // Routes without a body sometimes get one anyway.
  if (chance(0.1)) return { path, body: Buffer.from(JSON.stringify(mutate(random, {}, known))) };
  return { path };
}

function pathValue(random: () => number, name: string, schema: Schema, known: Known): string {
  const roll = random();
  const existing = (known[name] ?? []).filter((value): value is string => typeof value === 'string');
  if (name === '*') {
    const segments = Array.from({ length: 1 + Math.floor(random() * 3) }, () => (random() < 0.5 ? RAW_SEGMENTS[Math.floor(random() * RAW_SEGMENTS.length)]! : encode(NASTY[Math.floor(random() * NASTY.length)]!)));
    return random() < 0.3 ? `${existing[0] ?? 'index.html'}` : segments.join('/');
  }
  if (existing.length > 0 && roll < 0.5) return encode(existing[Math.floor(random() * existing.length)]!);
  if (roll < 0.7) return RAW_SEGMENTS[Math.floor(random() * RAW_SEGMENTS.length)]! || 'x';
  const value = valueFor(random, schema, name, known, 0);
  return encode(typeof value === 'string' ? value : JSON.stringify(value)) || 'x';
}

/** A value the schema allows, as far as a generator without a regex engine can tell. */
function valueFor(random: () => number, schema: Schema, name: string, known: Known, depth: number): Json {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  if (known[name] && known[name].length > 0 && random() < 0.7) return pick(known[name]);
  if ('const' in schema) return schema.const as Json;
  if (Array.isArray(schema.enum)) return pick(schema.enum as Json[]);
  const alternatives = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (alternatives) return valueFor(random, pick(alternatives), name, known, depth);
  const type = Array.isArray(schema.type) ? pick(schema.type as string[]) : (schema.type as string | undefined);
  switch (type) {
    case 'string': {
      if (name === 'operator' || name.endsWith('Operator')) return pick(['human:ann', 'agent:bot-1', 'human:fuzz']);
      const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
      const max = Math.min(typeof schema.maxLength === 'number' ? schema.maxLength : 24, 24);
      const length = min + Math.floor(random() * Math.max(1, max - min + 1));
      return Array.from({ length }, () => pick('abcdefghijklmnopqrstuvwxyz0123456789-_'.split(''))).join('');
    }
    case 'integer':
    case 'number': {
      const min = typeof schema.minimum === 'number' ? schema.minimum : 0;
      const max = typeof schema.maximum === 'number' ? schema.maximum : min + 20;
      const value = min + Math.floor(random() * (max - min + 1));
      return type === 'number' && random() < 0.3 ? value + 0.5 : value;
    }
    case 'boolean':
      return random() < 0.5;
    case 'null':
      return null;
    case 'array': {
      const items = (schema.items ?? {}) as Schema;
      return depth > 3 ? [] : Array.from({ length: Math.floor(random() * 4) }, () => valueFor(random, items, name, known, depth + 1));
    }
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const required = new Set((schema.required ?? []) as string[]);
      const value: { [key: string]: Json } = {};
      for (const [key, property] of Object.entries(properties)) {
        if (required.has(key) || random() < 0.6) value[key] = valueFor(random, property, key, known, depth + 1);
      }
      return value;
    }
    default:
      return anyJson(random, depth);
  }
}

/** The value with one thing wrong: a field of another type, missing, added, or a nasty string. */
function mutate(random: () => number, value: Json, known: Known): Json {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const wrong = (): Json => pick<Json>([null, -1, 0.5, 2 ** 60, 1e308, '', pick(NASTY), [], {}, true, [pick(NASTY)], { __proto__: null, x: 1 } as never, anyJson(random, 2)]);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return random() < 0.5 ? wrong() : [value, wrong()];
  const copy: { [key: string]: Json } = { ...value };
  const keys = Object.keys(copy);
  const roll = random();
  if (keys.length > 0 && roll < 0.3) delete copy[pick(keys)];
  else if (keys.length > 0 && roll < 0.75) {
    const key = pick(keys);
    copy[key] = typeof copy[key] === 'object' && copy[key] !== null && random() < 0.5 ? mutate(random, copy[key], known) : wrong();
  } else copy[pick(NASTY)] = wrong();
  return copy;
}

/** The value's JSON with one field (or the whole value) nested thousands of levels deep: parsers and serializers that recurse run out of stack. */
function deeplyNested(random: () => number, value: Json): string {
  const depth = [100, 5_000, 50_000][Math.floor(random() * 3)]!;
  const deep = random() < 0.5 ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return deep;
  const keys = Object.keys(value);
  const key = keys.length > 0 && random() < 0.8 ? keys[Math.floor(random() * keys.length)]! : 'nested';
  return JSON.stringify({ ...value, [key]: '\u0000deep' }).replace(JSON.stringify('\u0000deep'), deep);
}

function anyJson(random: () => number, depth: number): Json {
  const roll = random();
  if (depth > 2 || roll < 0.5) return [null, true, 0, -7, 3.25, 'text', NASTY[Math.floor(random() * NASTY.length)]!][Math.floor(random() * 7)]!;
  if (roll < 0.75) return Array.from({ length: Math.floor(random() * 3) }, () => anyJson(random, depth + 1));
  const value: { [key: string]: Json } = {};
  for (let i = Math.floor(random() * 3); i > 0; i--) value[NASTY[Math.floor(random() * NASTY.length)]!] = anyJson(random, depth + 1);
  return value;
}

/** Percent-encodes a string; a lone surrogate (which has no UTF-8) becomes the bytes a careless encoder would send. */
function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80';
  }
}
