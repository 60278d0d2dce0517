import type { AgentRuntime, RuntimeEvent, TaskRunResult } from '../../agents/runtime';
import { TERMINAL } from '../../coordinator/state';
import { CoworkError, isCoworkError } from '../../errors';
import type { Host } from '../../host';
import { createModelProvider, MODEL_ENV, modelConfigFromEnv, type ModelConfig, type ModelProvider } from '../../models';
import { leaf, type CliContext, type LeafArgs } from '../command';
import { CommandExit, RUN_EXIT } from '../command-exit';
import { EXIT } from '../exit-codes';
import { progressLine } from '../progress';
import { describeAssignment, describeTokens, readTaskView, type AssignmentView, type TokenTotals } from '../task-view';

/**
 * `cowork run`: runs a task in this process until it is done, waits for the person, or is
 * stopped. Nothing here is needed to resume: the runtime keeps every step durable, so after
 * Ctrl-C, a crash or SIGKILL, `cowork run --resume TASK` continues from the records.
 */

/** What `cowork run` prints at the end (the `--json` document). */
export interface RunReport {
  readonly taskId: string;
  readonly outcome: TaskRunResult;
  /** The command that continues the task; absent when it is done. */
  readonly resume?: string;
  /** Main's turns so far (all runs of the task). */
  readonly turns: number;
  readonly subagents: readonly AssignmentView[];
  /** Tokens of the whole task, all runs and agents. */
  readonly tokens: TokenTotals;
  /** Tokens this run used. */
  readonly tokensThisRun: TokenTotals;
}

/** A new task, or one to resume; `workspaceArgument` is `--workspace DIR` as given, for the resume commands printed. */
type RunInput = { readonly workspaceArgument: string } & (
  | { readonly kind: 'new'; readonly request: string; readonly maxTokens?: number }
  | { readonly kind: 'resume'; readonly taskId: string; readonly message?: string }
);

export const runCommand = leaf({
  summary: 'run a task: Main and its subagents work on REQUEST until it is done or waits for you (--resume: continue task REQUEST)',
  details: [
    '',
    'Progress (turns, tool calls, subagents, tokens) goes to stderr as it happens; a summary goes to stdout at',
    'the end (with --json: no progress, one JSON document). Ctrl-C stops the run cleanly; the task stays',
    'resumable.',
    '',
    '`cowork run --resume TASK` continues a task: after Ctrl-C or a crash (running subagents are resumed and',
    "Main's half-done turn is finished from its log), or when it waits for you: add --message TEXT to answer.",
    '',
    'The model is any OpenAI-compatible chat-completions server: set COWORK_MODEL_BASE_URL (like',
    `http://127.0.0.1:8000/v1) and COWORK_MODEL, or ${MODEL_ENV.replayPath}=recording.jsonl to replay a recording.`,
    `${MODEL_ENV.apiKey}, ${MODEL_ENV.timeoutMs}, ${MODEL_ENV.maxContextTokens}, ${MODEL_ENV.recordPath} and the other`,
    'COWORK_ model variables apply too; --model-base-url and --model override the environment.',
    '',
    'Exit codes:',
    `  ${EXIT.ok}    the task is done`,
    `  ${EXIT.failure}    any other error (a task that is already done cannot be resumed: invalid_transition)`,
    `  ${EXIT.usage}    bad options, or no model configured (model_not_configured); nothing was run`,
    `  ${EXIT.notFound}    --resume names no task (not_found)`,
    `  ${RUN_EXIT.waiting}    the task is not finished: it waits for you (see Main's reply), for more budget, or for`,
    '       the model server; continue with `cowork run --resume TASK`',
    `  ${RUN_EXIT.interrupted}  interrupted by Ctrl-C; continue with \`cowork run --resume TASK\``,
  ],
  positionals: ['REQUEST'],
  options: {
    resume: { description: 'REQUEST is the id of a task to continue instead' },
    message: { value: 'TEXT', description: 'with --resume: post this message from you to Main first' },
    'max-tokens': { value: 'N', description: 'token budget of the new task, all its agents together' },
    'model-base-url': { value: 'URL', description: `the OpenAI-compatible server (default env ${MODEL_ENV.baseUrl})` },
    model: { value: 'NAME', description: `the model name (default env ${MODEL_ENV.model})` },
  },
  async run(args, context) {
    const input = runInput(args);
    const config = modelConfigFromEnv(context.io.env, modelOverrides(args));
    const provider = providerOrExit(config, context);
    const report = await context.withHost((host) => runOnHost(host, provider, config, input, context), { pollMonitors: true });
    context.out.result(report, describeRun);
    if (report.outcome.status === 'waiting') throw new CommandExit(RUN_EXIT.waiting, `task ${report.taskId} is waiting`);
    if (report.outcome.status === 'aborted') throw new CommandExit(RUN_EXIT.interrupted, `task ${report.taskId} was interrupted`);
  },
});

async function runOnHost(host: Host, provider: ModelProvider, config: ModelConfig, input: RunInput, context: CliContext): Promise<RunReport> {
  const progress = (line: string): void => {
    if (!context.out.json) context.io.stderr(`${line}\n`);
  };
  const thisRun = { inputTokens: 0, outputTokens: 0 };
  const onEvent = (event: RuntimeEvent): void => {
    if (event.type === 'model') {
      thisRun.inputTokens += event.inputTokens;
      thisRun.outputTokens += event.outputTokens;
    }
    const line = progressLine(event);
    if (line !== undefined) progress(line);
  };
  // Mounted MCP servers whose mcp.json entry enables sampling may ask this model for completions.
  host.mcp.lendModel(provider);
  // The agent runtime loads when a task runs, not when the CLI starts.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { AgentRuntime } = require('../../agents/runtime') as typeof import('../../agents/runtime');
  const runtime = new AgentRuntime({ host, provider, onEvent, ...(config.maxOutputTokens !== undefined && { maxOutputTokens: config.maxOutputTokens }) });
  // Ctrl-C stops Main at its next step; `close` then stops the subagents. Both leave their records
  // as they are, so the task resumes. `once`: a second Ctrl-C ends the process the default way.
  const stop = new AbortController();
  const onSigint = (): void => {
    progress('stopping at the next step (Ctrl-C again ends the process at once; the task stays resumable either way)');
    stop.abort(new CoworkError('invalid_transition', 'interrupted by Ctrl-C'));
  };
  process.once('SIGINT', onSigint);
  let taskId: string;
  let outcome: TaskRunResult;
  try {
    taskId = await openTask(host, runtime, input);
    progress(`task ${taskId} ${input.kind === 'new' ? 'started' : 'resumed'} · Ctrl-C stops it, \`${resumeCommand(taskId, input)}\` continues it`);
    outcome = await runtime.runTask(taskId, stop.signal);
  } finally {
    process.removeListener('SIGINT', onSigint);
    await runtime.close();
  }
  if (outcome.status === 'aborted') progress(`interrupted: task ${taskId} stopped; continue it with \`${resumeCommand(taskId, input)}\``);
  const view = await readTaskView(host, taskId);
  return {
    taskId,
    outcome,
    ...(outcome.status !== 'done' && { resume: resumeCommand(taskId, input, outcome) }),
    turns: view.turns,
    subagents: view.assignments,
    tokens: view.tokens,
    tokensThisRun: thisRun,
  };
}

/** A new task, or the one to resume (checked first, so that a message is never left in a finished task). */
async function openTask(host: Host, runtime: AgentRuntime, input: RunInput): Promise<string> {
  if (input.kind === 'new') return runtime.startTask(input.request, input.maxTokens === undefined ? {} : { maxTokens: input.maxTokens });
  const taskId = input.taskId;
  const task = host.coordinator.current.tasks[taskId];
  if (!task) throw new CoworkError('not_found', `no task ${JSON.stringify(taskId)}; \`cowork tasks\` lists them`, { taskId });
  if (TERMINAL.has(task.status)) {
    throw new CoworkError('invalid_transition', `task ${taskId} is already ${task.status}; there is nothing to resume`, { taskId, status: task.status });
  }
  if (input.message !== undefined) await runtime.postUserMessage(taskId, input.message);
  return taskId;
}

/** Checks the options against each other before anything is opened. */
function runInput(args: LeafArgs): RunInput {
  const text = args.positional('REQUEST');
  const workspaceArgument = workspaceOption(args);
  const message = args.option('message');
  const budget = args.option('max-tokens');
  if (!args.flag('resume')) {
    if (message !== undefined) throw invalid('message', '--message goes with --resume TASK; for a new task, put it in REQUEST');
    if (text.trim() === '') throw invalid('REQUEST', 'REQUEST is empty; say what the task is');
    return { kind: 'new', workspaceArgument, request: text, ...(budget !== undefined && { maxTokens: positiveInteger('max-tokens', budget) }) };
  }
  if (budget !== undefined) throw invalid('max-tokens', "--max-tokens sets a new task's budget; a resumed task keeps its own");
  if (message !== undefined && message.trim() === '') throw invalid('message', '--message is empty');
  return { kind: 'resume', workspaceArgument, taskId: text, ...(message !== undefined && { message }) };
}

export function modelOverrides(args: LeafArgs): ModelConfig {
  const baseUrl = args.option('model-base-url');
  const model = args.option('model');
  return { ...(baseUrl !== undefined && { baseUrl }), ...(model !== undefined && { model }) };
}

/** The provider; without a model, the `model_not_configured` error (saying how to set one) and exit 2. */
export function providerOrExit(config: ModelConfig, context: CliContext): ModelProvider {
  try {
    return createModelProvider(config);
  } catch (error) {
    if (!isCoworkError(error) || error.code !== 'model_not_configured') throw error;
    const message =
      `no model is configured. Point cowork at any OpenAI-compatible server with ${MODEL_ENV.baseUrl} (like http://127.0.0.1:8000/v1) ` +
      `and ${MODEL_ENV.model} (or --model-base-url and --model), or replay a recording with ${MODEL_ENV.replayPath}=recording.jsonl`;
    context.out.error(new CoworkError('model_not_configured', message, error.details));
    throw new CommandExit(EXIT.usage, 'model_not_configured');
  }
}

function resumeCommand(taskId: string, input: RunInput, outcome?: TaskRunResult): string {
  const answer = outcome?.status === 'waiting' && outcome.reason === 'awaiting_user' ? ' --message "<your answer>"' : '';
  return `cowork run --resume ${taskId}${answer}${input.workspaceArgument}`;
}

/** `--workspace DIR` as given, so that the printed resume command works from the same directory. */
function workspaceOption(args: LeafArgs): string {
  const workspace = args.option('workspace');
  if (workspace === undefined) return '';
  return ` --workspace ${/^[\w./:@%+=-]+$/.test(workspace) ? workspace : JSON.stringify(workspace)}`;
}

function describeRun(report: RunReport): string[] {
  return [
    ...describeOutcome(report),
    `turns: ${report.turns} (main)`,
    `subagents:${report.subagents.length === 0 ? ' none' : ''}`,
    ...report.subagents.map((a) => `  ${describeAssignment(a)}`),
    `tokens: ${describeTokens(report.tokens)} (this run: ${describeTokens(report.tokensThisRun)})`,
  ];
}

function describeOutcome({ taskId, outcome, resume }: RunReport): string[] {
  const next = resume === undefined ? [] : [`  continue with: ${resume}`];
  switch (outcome.status) {
    case 'done':
      return [`task ${taskId}: done`, ...outcome.summary.split('\n').map((line) => `  ${line}`)];
    case 'aborted':
      return [`task ${taskId}: interrupted; not finished, it can be resumed`, ...next];
    case 'waiting': {
      const why = outcome.error === undefined ? outcome.reason : `${outcome.reason}: ${outcome.error}`;
      const reply = outcome.reply === undefined || outcome.reply === '' ? [] : ["  Main's reply:", ...outcome.reply.split('\n').map((line) => `    ${line}`)];
      return [`task ${taskId}: waiting (${why}); not finished`, ...reply, ...next];
    }
  }
}

function positiveInteger(name: string, text: string): number {
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < 1) throw invalid(name, `--${name} must be a whole number of at least 1, got ${JSON.stringify(text)}`, text);
  return value;
}

function invalid(field: string, message: string, received?: string): CoworkError {
  return new CoworkError('invalid_input', message, { field, ...(received !== undefined && { received }) });
}
