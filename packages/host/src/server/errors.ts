import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import Ajv, { type ErrorObject } from 'ajv';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CoworkError, isCoworkError, type ErrorCode } from '../errors';

/**
 * The server's one error shape, `{"error": {"code", "message", "hint", ...details}}`, for every
 * failure: the host's own coded errors keep their code and status; fastify's own (validation,
 * unparsable JSON, body too large, unknown route) are re-coded from the registry; anything else
 * is a 500 `internal` whose message says nothing about the inside (no stack, no SQL), and is
 * reported to `onUnexpected` instead.
 */
export function installErrorHandling(app: FastifyInstance, onUnexpected: (error: unknown) => void): void {
  app.setValidatorCompiler(validatorCompiler());
  app.setSchemaErrorFormatter((errors, dataVar) => validationError(errors, dataVar));
  app.setErrorHandler((error: FastifyError | CoworkError, request: FastifyRequest, reply: FastifyReply) => {
    const coded = toWireError(error);
    if (coded.status >= 500) onUnexpected(error);
    void reply.code(coded.status).type('application/json; charset=utf-8').send(coded.toJSON());
  });
  app.setNotFoundHandler((request, reply) => {
    const error = new CoworkError('not_found', `no route ${request.method} ${request.url.split('?')[0]}`);
    void reply.code(404).send(error.toJSON());
  });
}

/** A thrown value as the coded error sent on the wire. */
export function toWireError(error: unknown): CoworkError {
  if (isCoworkError(error)) return error;
  const fastify = error as Partial<FastifyError> & { validation?: unknown };
  if (fastify.validation !== undefined && error instanceof Error) {
    return new CoworkError('invalid_input', error.message, { problems: fastify.validation as unknown[] });
  }
  const code = typeof fastify.code === 'string' ? fastify.code : '';
  const mapped = FASTIFY_CODES[code];
  if (mapped) return new CoworkError(mapped[0], mapped[1]);
  const status = typeof fastify.statusCode === 'number' ? fastify.statusCode : 500;
  // Any other client error fastify raises (a malformed URL, a bad header) is the caller's input.
  if (status >= 400 && status < 500) return new CoworkError('invalid_input', fastify.message ?? 'bad request');
  return new CoworkError('internal', 'the server failed unexpectedly; the error was logged');
}

const FASTIFY_CODES: Record<string, [ErrorCode, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: ['invalid_json', 'the body is not valid JSON'],
  FST_ERR_CTP_EMPTY_JSON_BODY: ['invalid_json', 'the body is empty; send a JSON object'],
  FST_ERR_CTP_BODY_TOO_LARGE: ['content_too_large', 'the body is over the size limit'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['invalid_input', 'send the body as Content-Type: application/json'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['invalid_input', 'Content-Length does not match the body'],
  FST_ERR_BAD_URL: ['invalid_input', 'the URL is not valid: a percent-encoding that is not UTF-8 or not hexadecimal'],
  FST_ERR_MAX_PARAM_LENGTH: ['invalid_input', 'a part of the URL is over the length limit'],
};

/**
 * Errors of a connection before any request could be read or answered by a route: a request that
 * took longer than the request timeout to arrive (408 `request_timeout`), or bytes that are not
 * HTTP. Answered in the one error shape, then the socket is closed.
 */
export function clientErrorHandler(headers: Readonly<Record<string, string>>) {
  return (error: Error & { code?: string }, socket: Duplex): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const coded =
      error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new CoworkError('request_timeout', 'the request did not arrive in full within the time limit; send it again, without pauses')
        : new CoworkError('invalid_input', `the request is not valid HTTP (${error.code ?? error.message})`);
    const text = JSON.stringify(coded.toJSON());
    const lines = [`HTTP/1.1 ${coded.status} ${STATUS_CODES[coded.status] ?? 'Error'}`, 'connection: close', 'content-type: application/json; charset=utf-8', `content-length: ${Buffer.byteLength(text)}`];
    for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
    if (socket.writable) socket.end(`${lines.join('\r\n')}\r\n\r\n${text}`);
    socket.destroy();
  };
}

/**
 * Errors fastify raises before a route is found (a URL that does not decode, a parameter over the
 * length limit), which would otherwise be answered in fastify's own shape. No hooks have run for
 * such a request, so the headers every answer carries are set here.
 */
export function frameworkErrorHandler(headers: Readonly<Record<string, string>>) {
  return (error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void => {
    const coded = toWireError(error);
    void reply.code(coded.status).headers(headers).type('application/json; charset=utf-8').send(coded.toJSON());
  };
}

/**
 * Bodies are validated strictly (a string is never taken for a number: `"baseRevision": "3"` is
 * refused, not coerced), while path and query parameters, which are always strings on the wire,
 * are coerced to the types their schemas name.
 */
function validatorCompiler(): (route: { schema: object; httpPart?: string }) => (data: unknown) => boolean | { error: Error } {
  const strict = new Ajv({ allErrors: false, strict: false, coerceTypes: false, useDefaults: false });
  const coercing = new Ajv({ allErrors: false, strict: false, coerceTypes: true, useDefaults: true });
  return ({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? strict : coercing;
    return ajv.compile(schema) as (data: unknown) => boolean;
  };
}

function validationError(errors: readonly unknown[], dataVar: string): Error {
  const problems = (errors as ErrorObject[]).map((e) => `${dataVar}${e.instancePath} ${e.message ?? 'is invalid'}`);
  const error = new Error(problems.join('; ')) as Error & { validation: unknown[] };
  error.validation = (errors as ErrorObject[]).map((e) => ({ path: `${dataVar}${e.instancePath}`, message: e.message ?? 'is invalid' }));
  return error;
}
