import { CoworkError } from '../errors';
import { checkJobInput } from '../jobs/job-input';
import type { MonitorKind, MonitorTarget } from '../store/monitor-records';
import { parseCron } from './cron';
import { parseJsonPath } from './json-path';
import { resolveInWorkspace } from '../util/paths';

/** What a caller asks to watch. Which fields apply depends on `kind` (others are refused). */
export type CreateMonitorInput = {
  readonly kind: MonitorKind;
  /** A label for people and for the events. */
  readonly name?: string;
  /** Poll period, or an `interval` timer's period. At least 1; default 60 for polled kinds. */
  readonly intervalSeconds?: number;
  /** `file`: relative to the workspace, inside it; it need not exist yet. */
  readonly path?: string;
  /** `http`: an http(s) URL. */
  readonly url?: string;
  /** `http`: observe the value at this path of a JSON body instead of the body's hash. */
  readonly jsonPath?: string;
  /** `http` (default 10) and `command` (default 30). */
  readonly timeoutSeconds?: number;
  /** `job_log`. */
  readonly jobId?: string;
  /** `job_log`: a JavaScript regular expression. */
  readonly pattern?: string;
  /** `job_log`: default stdout. */
  readonly stream?: 'stdout' | 'stderr';
  /** `command`: the program (not run through a shell), its arguments and working directory in the workspace. */
  readonly command?: string;
  readonly args?: string[];
  readonly cwd?: string;
  /** `resource`. */
  readonly resourceId?: string;
  /** `cron`: five fields (minute hour day-of-month month day-of-week), UTC. */
  readonly cron?: string;
};

/** The input, checked: the stored target and the poll period (null for cron). */
export interface CheckedMonitorInput {
  readonly kind: MonitorKind;
  readonly name: string | null;
  readonly target: MonitorTarget;
  readonly intervalMs: number | null;
}

export const MONITOR_KINDS: readonly MonitorKind[] = ['file', 'http', 'job_log', 'command', 'resource', 'interval', 'cron'];
export const MIN_INTERVAL_SECONDS = 1;
const MAX_INTERVAL_SECONDS = 7 * 24 * 3600;
const DEFAULT_INTERVAL_SECONDS = 60;

/** The fields each kind reads besides kind, name and intervalSeconds. */
const FIELDS: Readonly<Record<MonitorKind, readonly (keyof CreateMonitorInput)[]>> = {
  file: ['path'],
  http: ['url', 'jsonPath', 'timeoutSeconds'],
  job_log: ['jobId', 'pattern', 'stream'],
  command: ['command', 'args', 'cwd', 'timeoutSeconds'],
  resource: ['resourceId'],
  interval: [],
  cron: ['cron'],
};

/**
 * Checks a monitor before anything is stored: `invalid_input` naming the field for a malformed or
 * misplaced field (an invalid cron expression also names its cron field), `command_not_found`
 * for a command monitor's missing program. Whether a job or resource exists is checked by the
 * service, which can see them.
 */
export function checkMonitorInput(workspaceDir: string, input: CreateMonitorInput): CheckedMonitorInput {
  const kind = input.kind;
  if (!MONITOR_KINDS.includes(kind)) throw invalid('kind', `kind must be one of ${MONITOR_KINDS.join(', ')}`, kind);
  const allowed = new Set<string>(['kind', 'name', 'intervalSeconds', ...FIELDS[kind]]);
  for (const [field, value] of Object.entries(input)) {
    if (value !== undefined && !allowed.has(field)) throw invalid(field, `${field} does not apply to a ${kind} monitor (it takes ${[...allowed].join(', ')})`);
  }
  if (input.name !== undefined && (typeof input.name !== 'string' || input.name.length > 200)) {
    throw invalid('name', 'name must be a string of at most 200 characters');
  }
  const name = input.name ?? null;
  if (kind === 'cron') {
    if (input.intervalSeconds !== undefined) throw invalid('intervalSeconds', 'a cron monitor fires on its expression; leave intervalSeconds out');
    const expression = parseCron(required(input.cron, 'cron')).expression;
    return { kind, name, target: { kind, expression }, intervalMs: null };
  }
  if (kind === 'interval' && input.intervalSeconds === undefined) throw invalid('intervalSeconds', 'an interval timer needs intervalSeconds');
  const intervalMs = seconds(input.intervalSeconds ?? DEFAULT_INTERVAL_SECONDS, 'intervalSeconds', MIN_INTERVAL_SECONDS, MAX_INTERVAL_SECONDS);
  return { kind, name, target: target(workspaceDir, input), intervalMs };
}

function target(workspaceDir: string, input: CreateMonitorInput): MonitorTarget {
  switch (input.kind) {
    case 'file':
      return { kind: 'file', path: resolveInWorkspace(workspaceDir, input.path, 'path') };
    case 'http': {
      const url = required(input.url, 'url');
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        throw invalid('url', `url ${JSON.stringify(url)} is not a URL`, url);
      }
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw invalid('url', 'url must be http or https', url);
      const jsonPath = input.jsonPath === undefined ? null : input.jsonPath;
      if (jsonPath !== null) parseJsonPath(jsonPath);
      return { kind: 'http', url: parsed.href, jsonPath, timeoutMs: seconds(input.timeoutSeconds ?? 10, 'timeoutSeconds', 0.1, 120) };
    }
    case 'job_log': {
      const pattern = required(input.pattern, 'pattern');
      try {
        new RegExp(pattern);
      } catch (error) {
        throw invalid('pattern', `pattern is not a valid regular expression: ${(error as Error).message}`, pattern);
      }
      const stream = input.stream ?? 'stdout';
      if (stream !== 'stdout' && stream !== 'stderr') throw invalid('stream', 'stream must be stdout or stderr', stream);
      return { kind: 'job_log', jobId: required(input.jobId, 'jobId'), pattern, stream };
    }
    case 'command': {
      const checked = checkJobInput(workspaceDir, { command: required(input.command, 'command'), args: input.args, cwd: input.cwd });
      const timeoutMs = seconds(input.timeoutSeconds ?? 30, 'timeoutSeconds', 0.1, 600);
      return { kind: 'command', command: checked.command, args: checked.args, cwd: checked.cwd, timeoutMs };
    }
    case 'resource':
      return { kind: 'resource', resourceId: required(input.resourceId, 'resourceId') };
    case 'interval':
      return { kind: 'interval' };
    case 'cron':
      return { kind: 'cron', expression: parseCron(required(input.cron, 'cron')).expression };
  }
}

function required(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw invalid(field, `${field} is required: a non-empty string`, value);
  return value;
}

/** Seconds within [min, max], as whole milliseconds. */
function seconds(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw invalid(field, `${field} must be a number of seconds from ${min} to ${max}`, value);
  }
  return Math.round(value * 1000);
}

function invalid(field: string, message: string, received?: unknown): CoworkError {
  return new CoworkError('invalid_input', message, { field, ...(received === undefined ? {} : { received: String(received) }) });
}
