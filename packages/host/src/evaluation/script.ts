import { existsSync, readFileSync } from 'node:fs';
import { CoworkError } from '../errors';
import { estimateUsage } from '../models/estimate';
import type { ChatMessage, ModelProvider, ModelRequest, ModelResponse } from '../models/types';
import { isPlainObject, type Json } from '../util/json';

/**
 * A session script: what the model said, turn by turn, for each agent of one benchmark task. It is
 * how a task's reference (and flawed) solutions are kept, and what `cowork bench run --record`
 * writes from a real model's run, so that `--replay` plays it back through the real runtime, tools
 * and plugins with no model server.
 *
 * A fresh workspace gives every trial new ids, so a script names them by placeholder, filled in as
 * it plays: `{{resource:NAME}}` (a task resource by its name in the task file), `{{task}}`,
 * `{{agent:NAME}}` (the id of the subagent Main delegated to as NAME), and `{{result:PATH}}` (a
 * value from the newest tool result the agent has seen, by a dotted path: `{{result:error.candidateId}}`).
 */
export const SCRIPT_FORMAT = 'cowork-bench-script/1';

export interface ScriptToolCall {
  readonly name: string;
  /** The tool's input: an object (placeholders filled in its strings), or raw text as a model may send. */
  readonly arguments: Json;
}

export interface ScriptTurn {
  readonly content?: string | null;
  readonly toolCalls?: readonly ScriptToolCall[];
  /** Token usage to report; estimated from the request and reply when absent. */
  readonly usage?: { readonly input: number; readonly output: number };
}

export interface SessionScript {
  readonly format: typeof SCRIPT_FORMAT;
  readonly suite: string;
  readonly task: string;
  /** Turns by agent: `main`, or a subagent by the name Main delegated to. */
  readonly agents: Readonly<Record<string, readonly ScriptTurn[]>>;
  /** The person's messages after Main's replies, in order, for suites whose tasks talk with a user. */
  readonly user?: readonly string[];
}

/** Values for a script's placeholders, looked up as the trial goes. */
export interface ScriptValues {
  readonly taskId: () => string;
  readonly resourceId: (name: string) => string | undefined;
  readonly agentId: (name: string) => string | undefined;
}

/** Reads and checks a script file; one for another suite or task is refused, naming the file. */
export function readScript(path: string, expected: { suite: string; task: string }): SessionScript {
  if (!existsSync(path)) throw new CoworkError('invalid_input', `no session script ${path} for task ${expected.suite}/${expected.task}`, { file: path });
  let script: SessionScript;
  try {
    script = JSON.parse(readFileSync(path, 'utf8')) as SessionScript;
  } catch (error) {
    throw new CoworkError('invalid_input', `${path} is not valid JSON: ${(error as Error).message}`, { file: path });
  }
  if (!isPlainObject(script) || script.format !== SCRIPT_FORMAT || !isPlainObject(script.agents)) {
    throw new CoworkError('invalid_input', `${path} is not a session script (format ${SCRIPT_FORMAT} with agents)`, { file: path });
  }
  if (script.suite !== expected.suite || script.task !== expected.task) {
    throw new CoworkError('replay_mismatch', `${path} is the script of ${script.suite}/${script.task}, not of ${expected.suite}/${expected.task}`, { file: path, task: `${expected.suite}/${expected.task}` });
  }
  return script;
}

/** Which agent a request comes from: `main`, a subagent by the name it was delegated as, or the compactor. */
export function requestingAgent(request: ModelRequest): { key: string; agentId: string } {
  const system = request.messages[0];
  const text = system?.role === 'system' ? system.content : '';
  if (text.startsWith('You are Main')) return { key: 'main', agentId: 'main' };
  const agentId = /^You are ([\w-]+),/.exec(text)?.[1];
  if (agentId) return { key: agentId.replace(/-[0-9a-f]{6}$/, ''), agentId };
  return { key: 'compactor', agentId: 'compactor' };
}

/**
 * Plays a script as the model: each agent's turns in order, placeholders filled. A request past an
 * agent's last turn, or from an agent the script does not have, is `replay_mismatch`.
 */
export class ScriptProvider implements ModelProvider {
  readonly name = 'script';
  readonly maxContextTokens = 1_000_000;
  private readonly next = new Map<string, number>();

  constructor(
    private readonly script: SessionScript,
    private readonly file: string,
    private readonly values: ScriptValues,
  ) {}

  async complete(request: ModelRequest): Promise<ModelResponse> {
    request.signal?.throwIfAborted();
    const { key } = requestingAgent(request);
    const turns = this.script.agents[key];
    const index = this.next.get(key) ?? 0;
    const turn = turns?.[index];
    if (!turn) {
      throw new CoworkError('replay_mismatch', `${this.file} has ${turns ? `no turn ${index + 1} for ${key} (it has ${turns.length})` : `no turns for ${key}`}; the run went another way than the script`, {
        file: this.file,
        agent: key,
        turn: index,
      });
    }
    this.next.set(key, index + 1);
    const toolCalls = (turn.toolCalls ?? []).map((call, i) => ({
      id: `call_${key}_${index}_${i}`,
      name: call.name,
      arguments: typeof call.arguments === 'string' ? this.fill(call.arguments, request.messages) : JSON.stringify(this.fillJson(call.arguments, request.messages)),
    }));
    const content = turn.content === undefined || turn.content === null ? null : this.fill(turn.content, request.messages);
    const reply = { content, toolCalls };
    const usage = turn.usage
      ? { inputTokens: turn.usage.input, outputTokens: turn.usage.output, totalTokens: turn.usage.input + turn.usage.output }
      : estimateUsage(request.messages, request.tools, reply);
    return { message: reply, finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop', usage, model: 'script', latencyMs: 0, attempts: 1 };
  }

  private fillJson(value: Json, messages: readonly ChatMessage[]): Json {
    if (typeof value === 'string') {
      // A string that is one placeholder takes the value's own type (a revision number stays a number).
      const whole = PLACEHOLDER_ONLY.exec(value);
      return whole ? this.resolve(whole[0], whole[1]!, whole[2], messages) : this.fill(value, messages);
    }
    if (Array.isArray(value)) return value.map((item) => this.fillJson(item, messages));
    if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.fillJson(v as Json, messages)]));
    return value;
  }

  private fill(text: string, messages: readonly ChatMessage[]): string {
    return text.replace(PLACEHOLDER, (whole, what: string, arg: string | undefined) => {
      const value = this.resolve(whole, what, arg, messages);
      return typeof value === 'string' ? value : JSON.stringify(value);
    });
  }

  private resolve(whole: string, what: string, arg: string | undefined, messages: readonly ChatMessage[]): Json {
    const value =
      what === 'task'
        ? this.values.taskId()
        : what === 'resource'
          ? this.values.resourceId(arg ?? '')
          : what === 'agent'
            ? this.values.agentId(arg ?? '')
            : lastResultValue(messages, arg ?? '');
    if (value === undefined) throw new CoworkError('replay_mismatch', `${this.file}: ${whole} has no value in this run`, { file: this.file, placeholder: whole });
    return value;
  }
}

const PLACEHOLDER = /\{\{(resource|agent|result|task)(?::([^}]+))?\}\}/g;
const PLACEHOLDER_ONLY = /^\{\{(resource|agent|result|task)(?::([^}]+))?\}\}$/;

/** A value from the newest tool result in the messages, by a dotted path. */
function lastResultValue(messages: readonly ChatMessage[], path: string): Json | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== 'tool') continue;
    let value: unknown;
    try {
      value = JSON.parse(message.content);
    } catch {
      return undefined;
    }
    for (const part of path.split('.')) {
      if (!isPlainObject(value) && !Array.isArray(value)) return undefined;
      value = (value as Record<string, unknown>)[part];
    }
    return value as Json | undefined;
  }
  return undefined;
}

/**
 * Wraps a real model and writes down what it said as a session script, each agent's turns apart,
 * with this trial's ids put back as placeholders so that the script plays in any fresh workspace.
 */
export class ScriptRecorder implements ModelProvider {
  readonly name: string;
  readonly maxContextTokens: number;
  readonly model: string | undefined;
  private readonly agents = new Map<string, ScriptTurn[]>();

  constructor(
    private readonly inner: ModelProvider,
    private readonly ids: () => Readonly<Record<string, string>>,
  ) {
    this.name = inner.name;
    this.maxContextTokens = inner.maxContextTokens;
    this.model = inner.model;
  }

  async complete(request: ModelRequest): Promise<ModelResponse> {
    const response = await this.inner.complete(request);
    const { key } = requestingAgent(request);
    const placeholders = Object.entries(this.ids()).sort(([, a], [, b]) => b.length - a.length);
    const unfill = (text: string): string => placeholders.reduce((out, [placeholder, id]) => out.split(id).join(placeholder), text);
    const turn: ScriptTurn = {
      content: response.message.content === null ? null : unfill(response.message.content),
      toolCalls: response.message.toolCalls.map((call) => ({ name: call.name, arguments: parseOrText(unfill(call.arguments)) })),
      usage: { input: response.usage.inputTokens, output: response.usage.outputTokens },
    };
    this.agents.set(key, [...(this.agents.get(key) ?? []), turn]);
    return response;
  }

  script(suite: string, task: string, user?: readonly string[]): SessionScript {
    return { format: SCRIPT_FORMAT, suite, task, agents: Object.fromEntries(this.agents), ...(user && user.length > 0 ? { user } : {}) };
  }
}

function parseOrText(text: string): Json {
  try {
    const parsed = JSON.parse(text) as Json;
    return isPlainObject(parsed) ? parsed : text;
  } catch {
    return text;
  }
}
