import { definePlugin, defineTool } from '../define-plugin';
import { CoworkError } from '../../errors';
import type { PluginDefinition, ToolContext, ToolDefinition } from '../types';
import type { Json } from '../../store/records';
import { asToolResult } from '../tool-result';
import { runView, type Runs } from '../../agents/runs';
import { compareRuns } from '../../agents/run-comparison';
import { agentSandbox, mainMayUseNetwork, requireNetworkGrant, type JobToolsPolicy } from './jobs-plugin';

/**
 * The agent tools over runs (agents/runs.ts): `start_run`, `record_run`, `list_runs`, `run_status`, `compare_runs`.
 * start_run starts its job exactly as start_job does (the same sandbox, the same network grant and
 * approval), then records the run.
 */
export function runsPlugin(runs: Runs, policy: JobToolsPolicy = {}): PluginDefinition {
  return definePlugin({ name: 'runs', version: '0.1.0', description: 'Experiment runs: jobs with their parameters and metrics.', tools: runTools(runs, policy) });
}

export function runTools(runs: Runs, policy: JobToolsPolicy = {}): ToolDefinition[] {
  return [startRun(runs, policy.mayUseNetwork ?? mainMayUseNetwork), recordRun(runs), listRuns(runs), runStatus(runs), compareRunsTool(runs)];
}

const RUN_ID = { type: 'string', description: 'The id start_run or record_run returned (run_...).' };
const PARAMS = { type: 'object', description: 'The parameters of the experiment (learning rate, seed, ...), shown as what changed between runs.' };
const GOAL = {
  type: 'object',
  properties: { metric: { type: 'string' }, direction: { enum: ['min', 'max'] } },
  required: ['metric', 'direction'],
  additionalProperties: false,
  description: 'Which way the metric improves (default: lower for names with loss/error/err/mse/mae/perplexity/latency, else higher).',
};
const ARTIFACTS = { type: 'array', items: { type: 'string' }, description: "Paths relative to the task folder, inside work/ or runs/<runId>/ (e.g. work/model.pt)." };
const METRICS_HELP =
  'The job reports metrics by appending lines to metrics.jsonl in its working folder ($COWORK_METRICS_FILE): {"name":"loss","value":0.5,"step":3} ' +
  'or {"step":3,"loss":0.5,"acc":0.9}; or by printing "METRIC loss=0.5 acc=0.9 step=3" on stdout. A bad line is reported in the run\'s problems and skipped.';

type StartRunInput = {
  name: string;
  params?: Json;
  goal?: { metric: string; direction: 'min' | 'max' };
  artifacts?: string[];
  command: string;
  args?: string[];
  cwd?: string;
  env?: Record<string, string>;
  network?: boolean;
};

function requireTask(context: ToolContext, tool: string): string {
  if (context.taskId === undefined) throw new CoworkError('invalid_input', `${tool} records a run of a task: the call carries no task`, { field: 'taskId' });
  return context.taskId;
}

function startRun(runs: Runs, mayUseNetwork: (context: ToolContext) => boolean): ToolDefinition<StartRunInput> {
  return defineTool({
    name: 'start_run',
    // As start_job: a job that reaches the network waits for a person's approval (the workspace's policy).
    impact: (input) => (input.network === true ? 'network' : undefined),
    description: [
      'Starts an experiment: runs the command as a background job (sandboxed as start_job: writable only in your task\'s work folder, no network unless network: true)',
      'and records a run with its name and params. Returns the run at once; check it with run_status and list_runs.',
      METRICS_HELP,
    ].join(' '),
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 120, description: 'A short name for the run.' },
        params: PARAMS,
        goal: GOAL,
        artifacts: ARTIFACTS,
        command: { type: 'string', minLength: 1, description: 'Program name (looked up on PATH) or path; not run through a shell (use "sh" with ["-c", "..."]).' },
        args: { type: 'array', items: { type: 'string' } },
        cwd: { type: 'string', description: "Working directory inside your task's work folder, relative to it (default: the work folder); metrics.jsonl is read from it." },
        env: { type: 'object', additionalProperties: { type: 'string' } },
        network: { type: 'boolean', description: 'Let the job reach the network (default false); needs the grant and a person\'s approval.' },
      },
      required: ['name', 'command'],
      additionalProperties: false,
    },
    permissions: [],
    handler: (input, context) =>
      asToolResult(async () => {
        const taskId = requireTask(context, 'start_run');
        const { name, params, goal, artifacts, network, ...job } = input;
        if (network === true) requireNetworkGrant(context, mayUseNetwork, 'start_run');
        const run = await runs.start({
          taskId,
          name,
          params,
          goal,
          artifacts,
          job,
          sandbox: agentSandbox(context, network),
          operator: context.operator,
          idempotencyKey: context.idempotencyKey,
        });
        return runView(run);
      }),
  });
}

type RecordRunInput = { runId?: string; jobId?: string; name?: string; params?: Json; goal?: { metric: string; direction: 'min' | 'max' }; artifacts?: string[] };

function recordRun(runs: Runs): ToolDefinition<RecordRunInput> {
  return defineTool({
    name: 'record_run',
    description:
      'Records a run of a job you already started (jobId, name, params), or adds to a run (runId with a further jobId, artifacts, params or goal). ' +
      METRICS_HELP,
    inputSchema: {
      type: 'object',
      properties: {
        runId: RUN_ID,
        jobId: { type: 'string', description: 'A job of this task (job_...).' },
        name: { type: 'string', minLength: 1, maxLength: 120 },
        params: PARAMS,
        goal: GOAL,
        artifacts: ARTIFACTS,
      },
      additionalProperties: false,
    },
    permissions: [],
    handler: (input, context) =>
      asToolResult(async () => {
        const taskId = requireTask(context, 'record_run');
        return runView(await runs.record({ taskId, ...input, operator: context.operator, idempotencyKey: context.idempotencyKey }));
      }),
  });
}

function listRuns(runs: Runs): ToolDefinition<{ limit?: number }> {
  return defineTool({
    name: 'list_runs',
    description: "Lists this task's runs, newest first: status, params, and each metric's last and best value (with its step).",
    inputSchema: { type: 'object', properties: { limit: { type: 'integer', minimum: 1, maximum: 200 } }, additionalProperties: false },
    permissions: [],
    handler: (input, context) =>
      asToolResult(async () => {
        const taskId = requireTask(context, 'list_runs');
        const all = await runs.list(taskId);
        return { total: all.length, runs: all.slice(0, input.limit ?? 50).map(runView) };
      }),
  });
}

function runStatus(runs: Runs): ToolDefinition<{ runId: string; series?: string; tail?: number }> {
  return defineTool({
    name: 'run_status',
    description: "Reports a run: status, jobs, params, metrics (last and best), artifacts and problems (bad metrics lines). With series, also that metric's last `tail` values (default 100).",
    inputSchema: {
      type: 'object',
      properties: { runId: RUN_ID, series: { type: 'string', description: 'A metric name.' }, tail: { type: 'integer', minimum: 1, maximum: 1000 } },
      required: ['runId'],
      additionalProperties: false,
    },
    permissions: [],
    handler: (input, context) =>
      asToolResult(async () => {
        const taskId = requireTask(context, 'run_status');
        const run = await runs.get(taskId, input.runId);
        if (input.series === undefined) return runView(run);
        const points = await runs.series(taskId, run.id, input.series, input.tail ?? 100);
        return { ...(runView(run) as Record<string, Json>), series: { name: input.series, points: points.map((p) => ({ step: p.step, value: p.value, at: p.at })) } };
      }),
  });
}

function compareRunsTool(runs: Runs): ToolDefinition<{ runIds: string[] }> {
  return defineTool({
    name: 'compare_runs',
    description:
      "Compares runs of this task side by side: the params that differ (each run's value, null when it has none) and every metric's last and best value per run, with the run that did best.",
    inputSchema: {
      type: 'object',
      properties: { runIds: { type: 'array', items: RUN_ID, minItems: 2, maxItems: 10, uniqueItems: true, description: 'The runs to compare, in the order to show them.' } },
      required: ['runIds'],
      additionalProperties: false,
    },
    permissions: [],
    handler: (input, context) =>
      asToolResult(async () => {
        const taskId = requireTask(context, 'compare_runs');
        const found = [];
        for (const id of input.runIds) found.push(await runs.get(taskId, id));
        return compareRuns(found);
      }),
  });
}
