import { CoworkError } from '../../errors';
import { definePlugin, defineTool } from '../define-plugin';
import type { PluginDefinition, ToolContext, ToolDefinition } from '../types';
import type { MonitorRecord } from '../../store/monitor-records';
import type { Json } from '../../store/records';
import { describeTarget } from '../../monitors/monitor-event';
import { MONITOR_KINDS, type CreateMonitorInput } from '../../monitors/monitor-input';
import type { MonitorService } from '../../monitors/monitor-service';
import { asToolResult } from '../tool-result';
import { agentSandbox, mainMayUseNetwork, requireNetworkGrant, type JobToolsPolicy } from './jobs-plugin';

/**
 * The agent tools over monitors: `create_monitor`, `list_monitors`, `cancel_monitor`. A monitor
 * belongs to the task and agent that created it: its events arrive in that agent's Inbox, and the
 * task cannot finish while it is active. Errors the model can fix come back as `isError` results.
 */
export function monitorsPlugin(service: MonitorService, workspaceDir: string, policy: JobToolsPolicy = {}): PluginDefinition {
  return definePlugin({ name: 'monitors', version: '0.1.0', description: 'Deterministic monitors and timers as agent tools.', tools: monitorTools(service, workspaceDir, policy) });
}

/** `policy.mayUseNetwork` decides whether a command monitor may ask for network, as for jobs (default: Main only). */
export function monitorTools(service: MonitorService, workspaceDir: string, policy: JobToolsPolicy = {}): ToolDefinition[] {
  return [createMonitor(service, workspaceDir, policy.mayUseNetwork ?? mainMayUseNetwork), listMonitors(service, workspaceDir), cancelMonitor(service, workspaceDir)];
}

const MONITOR_ID = { type: 'string', description: 'The id create_monitor returned (mon_...).' };

function createMonitor(service: MonitorService, workspaceDir: string, mayUseNetwork: (context: ToolContext) => boolean): ToolDefinition<CreateMonitorInput & { network?: boolean }> {
  return defineTool({
    name: 'create_monitor',
    // A command that reaches the network waits for a person's approval (the workspace's policy).
    impact: (input) => (input.network === true ? 'network' : undefined),
    description: [
      'Watches something deterministically, without you: it polls on its own schedule and posts a message to your Inbox only when',
      'what it observes changes (the first observation is the baseline). Kinds and their fields:',
      'file {path} (content hash; "exists: false" while missing);',
      'http {url, jsonPath?, timeoutSeconds?} (status and body hash, or the value at jsonPath like "$.state"; an unreachable URL is an observation too);',
      'job_log {jobId, pattern, stream?} (count and last line of a job\'s log matching a regular expression);',
      'command {command, args?, cwd?, timeoutSeconds?, network?} (exit code and stdout hash; no shell: use command "sh", args ["-c", "..."];',
      "sandboxed like start_job: cwd relative to your task's work folder, writable only there, no network unless network: true and granted);",
      'resource {resourceId} (its revision);',
      'interval {intervalSeconds} (a timer: a message each period); cron {cron} (a timer on a 5-field cron expression, UTC).',
      'intervalSeconds (at least 1, default 60) is the poll period. Park with sleep_until {monitorId} to wait for its next message.',
      'Cancel a monitor when you no longer need it: the task cannot finish while one is active.',
    ].join(' '),
    inputSchema: {
      type: 'object',
      properties: {
        kind: { enum: [...MONITOR_KINDS] },
        name: { type: 'string', maxLength: 200, description: 'A short label shown in its messages.' },
        intervalSeconds: { type: 'number', minimum: 1 },
        path: { type: 'string', description: 'file: relative to the workspace.' },
        url: { type: 'string' },
        jsonPath: { type: 'string', description: 'http: like $.status or $.items[0].state.' },
        timeoutSeconds: { type: 'number', exclusiveMinimum: 0 },
        jobId: { type: 'string' },
        pattern: { type: 'string', description: 'job_log: a JavaScript regular expression.' },
        stream: { enum: ['stdout', 'stderr'] },
        command: { type: 'string' },
        args: { type: 'array', items: { type: 'string' } },
        cwd: { type: 'string', description: "command: working directory inside your task's work folder, relative to it (default: the work folder)." },
        network: { type: 'boolean', description: 'command: let the command reach the network (default false); needs the grant.' },
        resourceId: { type: 'string' },
        cron: { type: 'string', description: 'cron: minute hour day-of-month month day-of-week, UTC; e.g. "0 9 * * 1-5".' },
      },
      required: ['kind'],
      additionalProperties: false,
    },
    permissions: [],
    handler: ({ network, ...input }, context) =>
      asToolResult(async () => {
        if (network !== undefined && input.kind !== 'command') {
          throw new CoworkError('invalid_input', `network does not apply to a ${input.kind} monitor`, { field: 'network' });
        }
        if (network === true) requireNetworkGrant(context, mayUseNetwork, 'create_monitor');
        const monitor = await service.create(input, {
          owner: { taskId: requireTask(context, 'create_monitor'), agentId: context.agentId },
          operator: context.operator,
          idempotencyKey: context.idempotencyKey,
          // Every command an agent's monitor runs is sandboxed (other kinds run no command).
          sandbox: input.kind === 'command' ? agentSandbox(context, network) : undefined,
        });
        return monitorView(monitor, workspaceDir);
      }),
  });
}

function listMonitors(service: MonitorService, workspaceDir: string): ToolDefinition<{ status?: 'active' | 'cancelled' }> {
  return defineTool({
    name: 'list_monitors',
    description: "Lists this task's monitors with their last observation, event count and next check. Default: active ones only.",
    inputSchema: { type: 'object', properties: { status: { enum: ['active', 'cancelled'] } }, additionalProperties: false },
    permissions: [],
    handler: (input, context) =>
      asToolResult(async () => {
        const monitors = await service.list({ taskId: context.taskId, status: input.status ?? 'active' });
        return { monitors: monitors.map((m) => monitorView(m, workspaceDir)) };
      }),
  });
}

function cancelMonitor(service: MonitorService, workspaceDir: string): ToolDefinition<{ monitorId: string }> {
  return defineTool({
    name: 'cancel_monitor',
    description: 'Stops a monitor for good (no more checks or messages). A monitor already cancelled is returned unchanged.',
    inputSchema: { type: 'object', properties: { monitorId: MONITOR_ID }, required: ['monitorId'], additionalProperties: false },
    permissions: [],
    handler: (input, context) =>
      asToolResult(async () => {
        const monitor = await service.get(input.monitorId);
        // Another task's monitor reads as missing, as someone else's draft does.
        if (context.taskId !== undefined && monitor.taskId !== context.taskId) {
          throw new CoworkError('not_found', `no monitor ${JSON.stringify(input.monitorId)} in this task`, { monitorId: input.monitorId });
        }
        return monitorView(await service.cancel(input.monitorId), workspaceDir);
      }),
  });
}

/** What a model sees of a monitor. */
export function monitorView(monitor: MonitorRecord, workspaceDir: string): Json {
  return {
    id: monitor.id,
    name: monitor.name,
    kind: monitor.kind,
    watches: describeTarget(monitor, workspaceDir),
    intervalSeconds: monitor.intervalMs === null ? null : monitor.intervalMs / 1000,
    status: monitor.status,
    agentId: monitor.agentId,
    observation: monitor.observation,
    events: monitor.seq,
    lastCheckedAt: monitor.lastCheckedAt,
    lastChangedAt: monitor.lastChangedAt,
    nextDueAt: monitor.status === 'active' ? monitor.nextDueAt : null,
    createdAt: monitor.createdAt,
  };
}

function requireTask(context: ToolContext, tool: string): string {
  if (context.taskId === undefined) {
    throw new CoworkError('invalid_input', `${tool} is for agents working on a task: the call carried no task`, { field: 'taskId' });
  }
  return context.taskId;
}

