import { definePlugin, defineTool } from '../define-plugin';
import type { PluginDefinition, ToolDefinition } from '../types';
import type { JobRecord } from '../../store/job-records';
import type { Json } from '../../store/records';
import type { LogStream } from '../../jobs/job-files';
import type { JobService } from '../../jobs/job-service';
import { asToolResult } from '../tool-result';

/**
 * The agent tools over jobs: `start_job`, `job_status`, `job_logs`, `cancel_job`. A call that ran
 * and failed (a command that does not exist, an unknown job id) returns `isError` with the coded
 * error, so the model can read what to fix; anything else is thrown for the host to report.
 */
export function jobsPlugin(service: JobService): PluginDefinition {
  // The host's own tools go through the same registry checks as any plugin's.
  return definePlugin({ name: 'jobs', version: '0.1.0', description: 'Background processes as agent tools.', tools: jobTools(service) });
}

export function jobTools(service: JobService): ToolDefinition[] {
  return [startJob(service), jobStatus(service), jobLogs(service), cancelJob(service)];
}

const JOB_ID = { type: 'string', description: 'The id start_job returned (job_...).' };

function startJob(service: JobService): ToolDefinition<{ command: string; args?: string[]; cwd?: string; env?: Record<string, string>; name?: string }> {
  return defineTool({
    name: 'start_job',
    description: [
      'Starts a command as a background job and returns at once with its id and status "running".',
      'The job keeps running across your context resets and host restarts; check it with job_status and job_logs.',
      'The command is not run through a shell: give the program and its arguments, or use',
      'command "sh" with args ["-c", "..."] for pipes and redirection. cwd is relative to the workspace and must stay inside it.',
    ].join(' '),
    inputSchema: {
      type: 'object',
      properties: {
        command: { type: 'string', minLength: 1, description: 'Program name (looked up on PATH) or path.' },
        args: { type: 'array', items: { type: 'string' } },
        cwd: { type: 'string', description: 'Working directory inside the workspace (default: the workspace).' },
        env: { type: 'object', additionalProperties: { type: 'string' }, description: 'Extra environment variables.' },
        name: { type: 'string', description: 'A short label for people.' },
      },
      required: ['command'],
      additionalProperties: false,
    },
    permissions: [],
    handler: (input, context) =>
      asToolResult(async () => jobView(await service.start(input, { operator: context.operator, taskId: context.taskId, idempotencyKey: context.idempotencyKey }))),
  });
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

