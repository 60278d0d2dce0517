import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WireChatRequest } from '../models/wire';
import { isPlainObject } from '../util/json';

/**
 * A local server that speaks the OpenAI chat-completions protocol and answers from a script, so
 * tests drive the real HTTP provider without a model. It listens on 127.0.0.1 only, checks the
 * request the way a real server would (model, messages, tool results that answer a known call,
 * no streaming), and records every JSON body it receives.
 */

export interface ScriptedToolCall {
  /** Omitted: the server makes one up. `null`: the reply carries no id (as some servers do). */
  id?: string | null;
  name: string;
  /** A string goes out as is (it may be invalid JSON, on purpose); an object is serialised. */
  arguments: string | Record<string, unknown>;
}

/** A 200 reply. `finishReason` defaults to `tool_calls` when there are tool calls, else `stop`. */
export interface ReplyStep {
  content?: string | null;
  toolCalls?: ScriptedToolCall[];
  finishReason?: string;
  /** Omitted: estimated from the text. `null`: the reply carries no usage. */
  usage?: { promptTokens: number; completionTokens: number } | null;
  model?: string;
}

/** A raw answer: an error status (with `Retry-After` when given), or a 200 with a body of your own. */
export interface StatusStep {
  status: number;
  /** A string is sent as is; anything else as JSON. Defaults to an OpenAI-style error body. */
  body?: unknown;
  retryAfterSeconds?: number;
}

/** Answers `then` after `delayMs`. */
export interface DelayStep {
  delayMs: number;
  then: ScriptStep;
}

/** Never answers (for timeout and abort tests). */
export interface HangStep {
  hang: true;
}

export type ScriptStep = ReplyStep | StatusStep | DelayStep | HangStep;

/** Steps consumed in order, or a function of the request body and its index (0, 1, ... over scripted requests). */
export type Script = readonly ScriptStep[] | ((body: WireChatRequest, index: number) => ScriptStep | Promise<ScriptStep>);

export interface ScriptedModelServer {
  /** Like `http://127.0.0.1:40123/v1`. */
  readonly baseUrl: string;
  /** Every JSON body received, in order, including ones the server refused. */
  readonly requests: WireChatRequest[];
  /** The headers of each entry in `requests`. */
  readonly headers: IncomingHttpHeaders[];
  /** Stops listening and drops open connections, hanging ones included. */
  close(): Promise<void>;
}

export const reply = {
  text(content: string, extra: Omit<ReplyStep, 'content'> = {}): ReplyStep {
    return { ...extra, content };
  },
  toolCalls(calls: ScriptedToolCall[], extra: Omit<ReplyStep, 'toolCalls'> = {}): ReplyStep {
    return { content: null, ...extra, toolCalls: calls };
  },
  status(status: number, extra: Omit<StatusStep, 'status'> = {}): StatusStep {
    return { ...extra, status };
  },
  delayed(delayMs: number, then: ScriptStep): DelayStep {
    return { delayMs, then };
  },
  hang(): HangStep {
    return { hang: true };
  },
};

export async function startScriptedModelServer(script: Script): Promise<ScriptedModelServer> {
  const requests: WireChatRequest[] = [];
  const headers: IncomingHttpHeaders[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let scripted = 0;

  const nextStep = async (body: WireChatRequest): Promise<ScriptStep> => {
    const index = scripted++;
    if (typeof script === 'function') return script(body, index);
    const steps: readonly ScriptStep[] = script;
    return steps[index] ?? reply.status(400, { body: errorBody(`scripted model server: no step for request ${index}`) });
  };

  const answer = (res: ServerResponse, step: ScriptStep, body: WireChatRequest, index: number): void => {
    if ('hang' in step) return;
    if ('delayMs' in step) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        answer(res, step.then, body, index);
      }, step.delayMs);
      timers.add(timer);
      return;
    }
    if ('status' in step) {
      const extra: Record<string, string> = step.retryAfterSeconds === undefined ? {} : { 'retry-after': String(step.retryAfterSeconds) };
      send(res, step.status, step.body ?? errorBody(`scripted HTTP ${step.status}`), extra);
      return;
    }
    send(res, 200, completion(step, body, index));
  };

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      send(res, 400, errorBody(`scripted model server: the script failed: ${String(error)}`));
    });
  });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      send(res, 404, errorBody(`no route ${req.method ?? ''} ${req.url ?? ''}`));
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(await readBody(req));
    } catch {
      send(res, 400, errorBody('the body is not JSON'));
      return;
    }
    const problem = checkRequest(body);
    if (isPlainObject(body)) {
      requests.push(body as unknown as WireChatRequest);
      headers.push(req.headers);
    }
    if (problem !== undefined) {
      send(res, 400, errorBody(problem));
      return;
    }
    const request = body as WireChatRequest;
    const index = scripted;
    answer(res, await nextStep(request), request, index);
  };

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    headers,
    close: async (): Promise<void> => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** What a real server refuses: no model, no messages, streaming, a tool result for no known call. */
function checkRequest(body: unknown): string | undefined {
  if (!isPlainObject(body)) return 'the body must be a JSON object';
  if (typeof body.model !== 'string' || body.model === '') return 'model is required';
  if (!Array.isArray(body.messages) || body.messages.length === 0) return 'messages must be a non-empty array';
  if (body.stream === true) return 'this server does not stream; send stream: false';
  const callIds = new Set<string>();
  for (const [i, message] of (body.messages as unknown[]).entries()) {
    if (!isPlainObject(message) || typeof message.role !== 'string') return `messages[${i}] has no role`;
    if (message.role === 'assistant' && Array.isArray(message.tool_calls)) {
      for (const call of message.tool_calls as unknown[]) if (isPlainObject(call) && typeof call.id === 'string') callIds.add(call.id);
    }
    if (message.role === 'tool' && (typeof message.tool_call_id !== 'string' || !callIds.has(message.tool_call_id))) {
      return `messages[${i}] answers tool call ${JSON.stringify(message.tool_call_id)}, which no earlier assistant message made`;
    }
  }
  return undefined;
}

function completion(step: ReplyStep, body: WireChatRequest, index: number): unknown {
  const toolCalls = (step.toolCalls ?? []).map((call, i) => {
    const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
    const wire = { type: 'function', function: { name: call.name, arguments: args } };
    return call.id === null ? wire : { id: call.id ?? `call_scripted_${index}_${i}`, ...wire };
  });
  const content = step.content ?? null;
  const message = toolCalls.length > 0 ? { role: 'assistant', content, tool_calls: toolCalls } : { role: 'assistant', content };
  const result: Record<string, unknown> = {
    id: `chatcmpl-scripted-${index}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: step.model ?? body.model,
    choices: [{ index: 0, message, finish_reason: step.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop') }],
  };
  if (step.usage !== null) {
    const outputText = (content ?? '') + toolCalls.map((call) => call.function.name + call.function.arguments).join('');
    const prompt = step.usage?.promptTokens ?? Math.ceil(JSON.stringify(body.messages).length / 4);
    const completionTokens = step.usage?.completionTokens ?? Math.ceil(outputText.length / 4);
    result.usage = { prompt_tokens: prompt, completion_tokens: completionTokens, total_tokens: prompt + completionTokens };
  }
  return result;
}

function errorBody(message: string): unknown {
  return { error: { message, type: 'invalid_request_error' } };
}

function send(res: ServerResponse, status: number, body: unknown, extraHeaders: Record<string, string> = {}): void {
  if (res.writableEnded || res.destroyed) return;
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const type = typeof body === 'string' ? 'text/plain' : 'application/json';
  res.writeHead(status, { 'content-type': type, ...extraHeaders });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
