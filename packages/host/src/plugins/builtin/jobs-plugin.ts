import { mkdirSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { definePlugin, defineTool } from '../define-plugin';
import { CoworkError } from '../../errors';
import type { PluginDefinition, ToolContext, ToolDefinition } from '../types';
import type { JobRecord } from '../../store/job-records';
import type { Json } from '../../store/records';
import type { LogStream } from '../../jobs/job-files';
import type { JobService } from '../../jobs/job-service';
import { asToolResult } from '../tool-result';
import { taskPaths } from '../../agents/task-files';
import type { SandboxRequest } from '../../jobs/sandbox-policy';

/**
 * The agent tools over jobs: `start_job`, `job_status`, `job_logs`, `cancel_job`. A call that ran
 * and failed (a command that does not exist, an unknown job id) returns `isError` with the coded
 * error, so the model can read what to fix; anything else is thrown for the host to report.
 */
export function jobsPlugin(service: JobService, policy: JobToolsPolicy = {}): PluginDefinition {
  // The host's own tools go through the same registry checks as any plugin's.
  return definePlugin({ name: 'jobs', version: '0.1.0', description: 'Background processes as agent tools.', tools: jobTools(service, policy) });
}

/**
 * What agents' jobs may do beyond their sandbox. Every job an agent starts runs under bubblewrap
 * (jobs/sandbox.ts), confined to its task's work folder, without network.
 */
export interface JobToolsPolicy {
  /**
   * Whether the calling agent's grants let its jobs (and command monitors) reach the network;
   * asking for `network: true` without it is `permission_denied`. This is the hook a per-agent
   * network grant plugs into. Default `mainMayUseNetwork`: Main holds every grant, subagents none.
   */
  readonly mayUseNetwork?: (context: ToolContext) => boolean;
}

/** The default network grant: Main (which holds every grant) may; a subagent may not. */
export function mainMayUseNetwork(context: ToolContext): boolean {
  return context.agentId === MAIN_AGENT;
}

/** `permission_denied` unless the grant lets the caller's commands reach the network. */
export function requireNetworkGrant(context: ToolContext, mayUseNetwork: (context: ToolContext) => boolean, tool: string): void {
  if (mayUseNetwork(context)) return;
  throw new CoworkError('permission_denied', `${tool}: network was not granted to ${context.agentId ?? 'this caller'}; the command runs without network (leave network out), or ask Main for it`, {
    permission: 'network',
    agentId: context.agentId ?? null,
  });
}

/** The sandbox of a command an agent starts: its task's work folder (created when missing), network as asked (and granted). */
export function agentSandbox(context: ToolContext, network: boolean | undefined): SandboxRequest {
  if (context.taskId === undefined) throw new CoworkError('invalid_input', 'an agent runs commands for a task: the call carries no task', { field: 'taskId' });
  return { workDir: taskPaths(context.host.workspaceDir, context.taskId).work, create: true, network: network === true };
}

export function jobTools(service: JobService, policy: JobToolsPolicy = {}): ToolDefinition[] {
  return [startJob(service, policy.mayUseNetwork ?? mainMayUseNetwork), jobStatus(service), jobLogs(service), cancelJob(service)];
}

/** Main's agent id (agents/runtime.ts). */
const MAIN_AGENT = 'main';

const JOB_ID = { type: 'string', description: 'The id start_job returned (job_...).' };

type StartJobToolInput = { command: string; args?: string[]; cwd?: string; env?: Record<string, string>; name?: string; network?: boolean; sandbox?: boolean };

function startJob(service: JobService, mayUseNetwork: (context: ToolContext) => boolean): ToolDefinition<StartJobToolInput> {
  return defineTool({
    name: 'start_job',
    // A command outside the sandbox, or one that reaches the network, waits for a person's approval (the workspace's policy).
    impact: (input) => (input.sandbox === false ? 'unsandboxed' : input.network === true ? 'network' : undefined),
    description: [
      'Starts a command as a background job and returns at once with its id and status "running".',
      'The job keeps running across your context resets and host restarts; check it with job_status and job_logs.',
      'The command is not run through a shell: give the program and its arguments, or use',
      'command "sh" with args ["-c", "..."] for pipes and redirection.',
      "It runs in a sandbox: it may write only in your task's work folder (its default cwd; cwd is relative to it and must stay inside it)",
      'and its own /tmp; the rest of the system is read-only, the rest of the workspace is not visible, and it has no network',
      'unless you pass network: true (only when your grants allow it).',
      'sandbox: false runs it as the host\'s user with its permissions and network (Main only); like network, it waits for a person\'s approval.',
    ].join(' '),
    inputSchema: {
      type: 'object',
      properties: {
        command: { type: 'string', minLength: 1, description: 'Program name (looked up on PATH) or path.' },
        args: { type: 'array', items: { type: 'string' } },
        cwd: { type: 'string', description: "Working directory inside your task's work folder, relative to it (default: the work folder)." },
        env: { type: 'object', additionalProperties: { type: 'string' }, description: 'Environment variables (on top of PATH, HOME, locale).' },
        name: { type: 'string', description: 'A short label for people.' },
        network: { type: 'boolean', description: 'Let the job reach the network (default false); needs the grant.' },
        sandbox: { type: 'boolean', description: 'false: run outside the sandbox (Main only, after a person approves). Default true.' },
      },
      required: ['command'],
      additionalProperties: false,
    },
    permissions: [],
    handler: ({ network, sandbox: sandboxed, ...input }, context) =>
      asToolResult(async () => {
        if (context.taskId === undefined) throw new CoworkError('invalid_input', 'start_job runs a job for a task: the call carries no task', { field: 'taskId' });
        if (sandboxed === false) return startUnsandboxed(service, input, context);
        if (network === true) requireNetworkGrant(context, mayUseNetwork, 'start_job');
        const sandbox = agentSandbox(context, network);
        const options = { operator: context.operator, taskId: context.taskId, idempotencyKey: context.idempotencyKey, sandbox };
        const job = await service.start(input, options);
        const spec = await service.sandboxOf(job.id);
        return { ...(jobView(job) as Record<string, Json>), sandbox: spec && { workDir: spec.workDir, network: spec.network } };
      }),
  });
}

/**
 * Main's job outside the sandbox (a person approved it before this runs): the host user's
 * permissions and environment, in the task's work folder unless `cwd` says otherwise.
 */
async function startUnsandboxed(service: JobService, input: Omit<StartJobToolInput, 'network' | 'sandbox'>, context: ToolContext): Promise<Json> {
  if (context.agentId !== MAIN_AGENT) {
    throw new CoworkError('permission_denied', 'start_job: only Main may run a command outside the sandbox', { permission: 'unsandboxed', agentId: context.agentId ?? null });
  }
  const workDir = agentSandbox(context, false).workDir;
  mkdirSync(workDir, { recursive: true });
  const cwd = relative(context.host.workspaceDir, resolve(workDir, input.cwd ?? '.'));
  const job = await service.start({ ...input, cwd: cwd === '' ? '.' : cwd }, { operator: context.operator, taskId: context.taskId, idempotencyKey: context.idempotencyKey });
  return { ...(jobView(job) as Record<string, Json>), sandbox: null };
}

function jobStatus(service: JobService): ToolDefinition<{ jobId?: string }> {
  return defineTool({
    name: 'job_status',
    description:
      'Reports a job: status (running, succeeded, failed, cancelled, uncertain), exitCode, pid and times. ' +
      '"uncertain" means the process is gone and nothing recorded how it ended: do not assume it succeeded. Without jobId, lists all jobs.',
    inputSchema: { type: 'object', properties: { jobId: JOB_ID }, additionalProperties: false },
    permissions: [],
    handler: (input) =>
      asToolResult(async () =>
        input.jobId === undefined ? { jobs: (await service.list()).map(jobView) } : jobView(await service.get(input.jobId)),
      ),
  });
}

function jobLogs(service: JobService): ToolDefinition<{ jobId: string; stream?: LogStream; tail?: number; search?: string }> {
  return defineTool({
    name: 'job_logs',
    description:
      "Reads a job's output: the last `tail` lines (default 50) of stdout or stderr, or with `search` (a JavaScript regular expression) " +
      'the last `tail` lines that match. Each line comes with its number `n`.',
    inputSchema: {
      type: 'object',
      properties: {
        jobId: JOB_ID,
        stream: { enum: ['stdout', 'stderr'], description: 'Default stdout.' },
        tail: { type: 'integer', minimum: 0, maximum: 1000 },
        search: { type: 'string' },
      },
      required: ['jobId'],
      additionalProperties: false,
    },
    permissions: [],
    handler: (input) =>
      asToolResult(async () => {
        const { jobId, stream, tail = 50, search } = input;
        const logs = await service.logs(jobId, { stream, tail, search });
        const status = (await service.get(jobId)).status;
        const lines = logs.lines.map(({ n, text }) => ({ n, text }));
        return { jobId, status, stream: logs.stream, totalLines: logs.totalLines, matches: logs.matches ?? null, lines };
      }),
  });
}

function cancelJob(service: JobService): ToolDefinition<{ jobId: string; graceMs?: number }> {
  return defineTool({
    name: 'cancel_job',
    description:
      'Stops a running job: SIGTERM to its process group, then SIGKILL after graceMs (default 5000). ' +
      'Returns the job once it ended; a job that already ended is returned unchanged.',
    inputSchema: {
      type: 'object',
      properties: { jobId: JOB_ID, graceMs: { type: 'integer', minimum: 0, maximum: 600_000 } },
      required: ['jobId'],
      additionalProperties: false,
    },
    permissions: [],
    handler: (input) => asToolResult(async () => jobView(await service.cancel(input.jobId, { graceMs: input.graceMs }))),
  });
}

/** What a model sees of a job. */
export function jobView(job: JobRecord): Json {
  return {
    id: job.id,
    name: job.name,
    status: job.status,
    command: job.command,
    args: [...job.args],
    cwd: job.cwd,
    pid: job.pid,
    exitCode: job.exitCode,
    signal: job.signal,
    error: job.error,
    createdAt: job.createdAt,
    startedAt: job.startedAt,
    endedAt: job.endedAt,
    cancelRequestedAt: job.cancelRequestedAt,
  };
}

