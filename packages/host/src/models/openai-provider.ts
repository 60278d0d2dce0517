import { CoworkError } from '../errors';
import { isPlainObject } from '../util/json';
import { estimateUsage } from './estimate';
import { parseRetryAfter, retryDelayMs, sleep } from './retry';
import type { ModelProvider, ModelRequest, ModelResponse, ReasoningEffort } from './types';
import { parseWireResponse, toWireRequest, type ParsedReply } from './wire';

export interface OpenAiProviderOptions {
  /** Like `http://127.0.0.1:8000/v1`; requests go to `${baseUrl}/chat/completions`. */
  baseUrl: string;
  model: string;
  /** Sent as `Authorization: Bearer …` when set; never logged or put in an error. */
  apiKey?: string;
  /** Limit for one HTTP attempt (default 120000). */
  timeoutMs?: number;
  /** Retries after the first attempt (default 4, so at most 5 attempts). */
  maxRetries?: number;
  /** First backoff delay, doubled per retry, with jitter (default 500). */
  retryBaseDelayMs?: number;
  /** Cap on any one wait, including one a server asks for with `Retry-After` (default 30000). */
  maxRetryDelayMs?: number;
  /** The context window the loop budgets against (default 128000). */
  maxContextTokens?: number;
  /** Output limit for requests that set none. */
  maxOutputTokens?: number;
  /** Reasoning effort for requests that set none; only sent when set. */
  reasoningEffort?: ReasoningEffort;
  /** Called before each retry's wait (for logs and metrics). */
  onRetry?: (info: RetryInfo) => void;
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
}

export interface RetryInfo {
  /** The attempt that failed (1 = the first). */
  attempt: number;
  delayMs: number;
  reason: string;
  status?: number;
}

/** An attempt that may succeed if repeated: a network error, 408, 429, 5xx, or an unreadable 200. */
interface RetryableFailure {
  reason: string;
  status?: number;
  retryAfterMs?: number;
}

type AttemptOutcome = { reply: ParsedReply } | { failure: RetryableFailure };

/**
 * A provider for any server of the OpenAI chat-completions protocol (vLLM, llama.cpp, Ollama, GLM,
 * Qwen endpoints), non-streaming, with tool calls.
 *
 * Retries: network errors, 408, 429, 5xx and unreadable replies are retried up to `maxRetries`
 * times with backoff, then fail as `model_unavailable`. Other 4xx fail at once as
 * `model_rejected`. A timed-out attempt fails at once as `model_timeout` (the server is likely
 * still busy with it, so repeating it would only queue more work). Aborting the caller's signal
 * stops everything, waits included, and rejects with the signal's reason.
 */
export class OpenAiCompatibleProvider implements ModelProvider {
  readonly name = 'openai-compatible';
  readonly maxContextTokens: number;
  readonly model: string;
  private readonly url: string;
  /** The base URL without any user:password in it, for messages. */
  private readonly where: string;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly backoff: { baseDelayMs: number; maxDelayMs: number };
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: OpenAiProviderOptions) {
    this.url = `${checkBaseUrl(options.baseUrl)}/chat/completions`;
    this.where = redactUrl(options.baseUrl);
    this.timeoutMs = options.timeoutMs ?? 120_000;
    this.maxRetries = options.maxRetries ?? 4;
    this.backoff = { baseDelayMs: options.retryBaseDelayMs ?? 500, maxDelayMs: options.maxRetryDelayMs ?? 30_000 };
    this.maxContextTokens = options.maxContextTokens ?? 128_000;
    this.model = options.model;
    this.fetchImpl = options.fetch ?? fetch;
  }

  async complete(request: ModelRequest): Promise<ModelResponse> {
    request.signal?.throwIfAborted();
    const started = performance.now();
    const body = JSON.stringify(toWireRequest(request, this.options));
    let failure: RetryableFailure | undefined;
    for (let attempt = 1; attempt <= this.maxRetries + 1; attempt++) {
      if (failure !== undefined) {
        const delayMs = retryDelayMs(attempt - 1, this.backoff, failure.retryAfterMs);
        this.options.onRetry?.({ attempt: attempt - 1, delayMs, reason: failure.reason, status: failure.status });
        await sleep(delayMs, request.signal);
      }
      const outcome = await this.attempt(body, attempt, request.signal);
      if ('reply' in outcome) {
        const { reply } = outcome;
        return {
          message: { content: reply.content, toolCalls: reply.toolCalls },
          finishReason: reply.finishReason,
          usage: reply.usage ?? estimateUsage(request.messages, request.tools, reply, this.model),
          model: reply.model ?? this.options.model,
          latencyMs: Math.round(performance.now() - started),
          attempts: attempt,
        };
      }
      failure = outcome.failure;
    }
    const attempts = this.maxRetries + 1;
    throw new CoworkError(
      'model_unavailable',
      `model server at ${this.where} failed ${attempts} attempt(s); last: ${failure?.reason ?? 'unknown'}`,
      { attempts, lastStatus: failure?.status ?? null, lastError: failure?.reason ?? null, baseUrl: this.where },
    );
  }

  /** One HTTP attempt. Throws what must not be retried; returns a reply or a retryable failure. */
  private async attempt(body: string, attempt: number, callerSignal: AbortSignal | undefined): Promise<AttemptOutcome> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const signal = callerSignal === undefined ? timeout : AbortSignal.any([callerSignal, timeout]);
    let status: number;
    let text: string;
    let retryAfter: string | null;
    try {
      const response = await this.fetchImpl(this.url, { method: 'POST', headers: this.headers(), body, signal });
      status = response.status;
      retryAfter = response.headers.get('retry-after');
      text = await response.text();
    } catch (error) {
      if (callerSignal?.aborted) throw callerSignal.reason;
      if (timeout.aborted) {
        throw new CoworkError('model_timeout', `model server gave no answer within ${this.timeoutMs} ms`, {
          timeoutMs: this.timeoutMs,
          attempts: attempt,
        });
      }
      return { failure: { reason: `network error: ${describe(error)}` } };
    }
    if (status >= 200 && status < 300) return readReply(text, status);
    if (status === 408 || status === 429 || status >= 500) {
      return { failure: { reason: `HTTP ${status}: ${serverMessage(text)}`, status, retryAfterMs: parseRetryAfter(retryAfter) } };
    }
    throw rejected(status, text, attempt);
  }

  private headers(): Record<string, string> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (this.options.apiKey !== undefined && this.options.apiKey !== '') headers.authorization = `Bearer ${this.options.apiKey}`;
    return headers;
  }
}

function readReply(text: string, status: number): AttemptOutcome {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { failure: { reason: `HTTP ${status} with a body that is not JSON: ${truncate(text)}`, status } };
  }
  const parsed = parseWireResponse(json);
  if (typeof parsed === 'string') return { failure: { reason: `HTTP ${status} but ${parsed}`, status } };
  return { reply: parsed };
}

const CONTEXT_EXCEEDED = /context length|context window|maximum context|too many tokens|prompt is too long|exceeds? the .*context/i;

function rejected(status: number, text: string, attempts: number): CoworkError {
  const message = serverMessage(text);
  const details: Record<string, unknown> = { status, serverMessage: message, attempts };
  // Named so that a caller can tell a context overflow from other refusals (today the loop treats
  // every model_rejected alike: the task waits for a person).
  if (CONTEXT_EXCEEDED.test(message)) details.reason = 'context_length_exceeded';
  return new CoworkError('model_rejected', `model server refused the request (HTTP ${status}): ${message}`, details);
}

/** The error text from `{"error": {"message"}}`, `{"error": "…"}`, `{"message"}` or `{"detail"}`, else the body. */
function serverMessage(text: string): string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return truncate(text);
  }
  if (isPlainObject(json)) {
    const error = json.error;
    if (typeof error === 'string') return truncate(error);
    if (isPlainObject(error) && typeof error.message === 'string') return truncate(error.message);
    if (typeof json.message === 'string') return truncate(json.message);
    if (typeof json.detail === 'string') return truncate(json.detail);
  }
  return truncate(text);
}

function checkBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new CoworkError('invalid_input', `model base URL ${JSON.stringify(baseUrl)} is not a URL`, { baseUrl });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CoworkError('invalid_input', `model base URL must be http or https, not ${url.protocol}`, { baseUrl });
  }
  return baseUrl.replace(/\/+$/, '');
}

function redactUrl(baseUrl: string): string {
  const url = new URL(baseUrl);
  url.username = '';
  url.password = '';
  return url.toString().replace(/\/+$/, '');
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // undici puts the useful part (ECONNREFUSED …) in the cause of a bare "fetch failed".
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}

function truncate(text: string, max = 500): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
