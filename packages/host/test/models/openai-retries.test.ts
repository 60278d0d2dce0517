/**
 * Invariant: a failing model server never crashes the caller and never retries without bound:
 * network errors, 429 and 5xx are retried a fixed number of times (honouring Retry-After, capped)
 * and then fail as model_unavailable with the attempts counted; other 4xx fail at once as
 * model_rejected with the server's answer; a hung server fails as model_timeout; and a caller's
 * abort stops the call at once, mid-request or mid-backoff, with the abort as the error.
 */
import { OpenAiCompatibleProvider, type OpenAiProviderOptions, type RetryInfo } from '../../src/models/openai-provider';
import { reply, startScriptedModelServer, type Script, type ScriptedModelServer } from '../../src/testkit';
import { caught } from '../support/temp-host';
import { firstTurn } from './fixtures';

let server: ScriptedModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function providerFor(script: Script, options: Partial<OpenAiProviderOptions> = {}): Promise<OpenAiCompatibleProvider> {
  server = await startScriptedModelServer(script);
  return new OpenAiCompatibleProvider({ baseUrl: server.baseUrl, model: 'test-model', retryBaseDelayMs: 1, ...options });
}

describe('OpenAiCompatibleProvider failures', () => {
  it('retries a 500 storm a bounded number of times, then fails as model_unavailable', async () => {
    const provider = await providerFor(() => reply.status(500), { maxRetries: 3 });
    const error = await caught(() => provider.complete(firstTurn()));
    expect(error).toMatchObject({ code: 'model_unavailable', details: { attempts: 4, lastStatus: 500 } });
    expect(server!.requests).toHaveLength(4);
  });

  it('recovers when the server comes back within the retries, and counts the attempts', async () => {
    const provider = await providerFor([reply.status(503), reply.status(502), reply.text('back')]);
    const response = await provider.complete(firstTurn());
    expect(response).toMatchObject({ message: { content: 'back' }, attempts: 3 });
  });

  it('waits as long as Retry-After asks on a 429', async () => {
    const retries: RetryInfo[] = [];
    const provider = await providerFor([reply.status(429, { retryAfterSeconds: 1 }), reply.text('ok')], {
      onRetry: (info) => retries.push(info),
    });
    const response = await provider.complete(firstTurn());
    expect(retries).toEqual([expect.objectContaining({ attempt: 1, delayMs: 1000, status: 429 })]);
    expect(response.attempts).toBe(2);
    expect(response.latencyMs).toBeGreaterThanOrEqual(950);
  });

  it('caps the wait a server asks for', async () => {
    const retries: RetryInfo[] = [];
    const provider = await providerFor([reply.status(429, { retryAfterSeconds: 3600 }), reply.text('ok')], {
      maxRetryDelayMs: 20,
      onRetry: (info) => retries.push(info),
    });
    await provider.complete(firstTurn());
    expect(retries[0]!.delayMs).toBe(20);
  });

  it('fails at once as model_rejected on a 400, with the server status and message', async () => {
    const provider = await providerFor(() => reply.status(400, { body: { error: { message: 'unknown model "x"' } } }));
    const error = await caught(() => provider.complete(firstTurn()));
    expect(error).toMatchObject({ code: 'model_rejected', details: { status: 400, serverMessage: 'unknown model "x"', attempts: 1 } });
    expect(server!.requests).toHaveLength(1);
  });

  it('names a context that is too long so the loop can compact', async () => {
    const message = "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens.";
    const provider = await providerFor([reply.status(400, { body: { object: 'error', message } })]);
    const error = await caught(() => provider.complete(firstTurn()));
    expect(error).toMatchObject({ code: 'model_rejected', details: { reason: 'context_length_exceeded', serverMessage: message } });
  });

  it('fails as model_timeout when the server does not answer in time, without retrying', async () => {
    const provider = await providerFor(() => reply.hang(), { timeoutMs: 150 });
    const error = await caught(() => provider.complete(firstTurn()));
    expect(error).toMatchObject({ code: 'model_timeout', details: { timeoutMs: 150, attempts: 1 } });
    expect(server!.requests).toHaveLength(1);
  });

  it('retries network errors, then fails as model_unavailable', async () => {
    const gone = await startScriptedModelServer([]);
    await gone.close();
    const provider = new OpenAiCompatibleProvider({ baseUrl: gone.baseUrl, model: 'm', maxRetries: 2, retryBaseDelayMs: 1 });
    const error = await caught(() => provider.complete(firstTurn()));
    expect(error).toMatchObject({ code: 'model_unavailable', details: { attempts: 3, lastStatus: null } });
    expect(String(error.details?.lastError)).toMatch(/network error/);
  });

  it('retries a 200 whose body is not a reply', async () => {
    const provider = await providerFor([reply.status(200, { body: '<html>proxy error</html>' }), reply.text('ok')]);
    expect((await provider.complete(firstTurn())).attempts).toBe(2);
  });
});

describe('OpenAiCompatibleProvider cancellation', () => {
  it('stops at once when the caller aborts mid-request, with the abort as the error', async () => {
    let arrived!: () => void;
    const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
    const provider = await providerFor(() => {
      arrived();
      return reply.hang();
    });
    const controller = new AbortController();
    const call = provider.complete({ ...firstTurn(), signal: controller.signal });
    await requestArrived;
    const reason = new Error('user pressed stop');
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);
    expect(server!.requests).toHaveLength(1);
  });

  it('stops at once when the caller aborts during a backoff wait', async () => {
    const controller = new AbortController();
    const provider = await providerFor(() => reply.status(500), {
      retryBaseDelayMs: 60_000,
      onRetry: () => controller.abort(),
    });
    const started = Date.now();
    const error = await caught(() => provider.complete({ ...firstTurn(), signal: controller.signal }));
    expect(error.name).toBe('AbortError');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(server!.requests).toHaveLength(1);
  });

  it('does not call the server when the signal is already aborted', async () => {
    const provider = await providerFor([reply.text('never')]);
    const error = await caught(() => provider.complete({ ...firstTurn(), signal: AbortSignal.abort() }));
    expect(error.name).toBe('AbortError');
    expect(server!.requests).toHaveLength(0);
  });
});
