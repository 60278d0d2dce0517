import { relative } from 'node:path';
import type { MonitorRecord } from '../store/monitor-records';
import type { Json } from '../store/records';

const BRIEF_CHARS = 200;

/**
 * The body of a monitor's Inbox message: which monitor, its event number, the new and previous
 * observations, and a one-line summary for the model.
 */
export function monitorEventBody(monitor: MonitorRecord, workspaceDir: string, previous: Json, observation: Json, seq: number, at: string): Json {
  return {
    event: 'monitor',
    monitorId: monitor.id,
    name: monitor.name,
    kind: monitor.kind,
    seq,
    at,
    summary: summary(monitor, workspaceDir, previous, observation),
    observation,
    previous,
  };
}

/** What a monitor watches, in a few words. */
export function describeTarget(monitor: MonitorRecord, workspaceDir: string): string {
  const t = monitor.target;
  switch (t.kind) {
    case 'file':
      return `file ${relative(workspaceDir, t.path) || '.'}`;
    case 'http':
      return `${t.url}${t.jsonPath === null ? '' : ` at ${t.jsonPath}`}`;
    case 'job_log':
      return `${t.stream} of ${t.jobId} matching /${t.pattern}/`;
    case 'command':
      return `command ${[t.command, ...t.args].join(' ')}`;
    case 'resource':
      return `resource ${t.resourceId}`;
    case 'interval':
      return `every ${(monitor.intervalMs ?? 0) / 1000} s`;
    case 'cron':
      return `cron "${t.expression}" (UTC)`;
  }
}

function summary(monitor: MonitorRecord, workspaceDir: string, previous: Json, observation: Json): string {
  const label = `${monitor.kind} monitor ${monitor.name ?? monitor.id} (${describeTarget(monitor, workspaceDir)})`;
  if (monitor.kind === 'interval' || monitor.kind === 'cron') {
    const o = observation as { fires?: number; missed?: number };
    return `${label} fired (${o.fires ?? 1} times${o.missed ? `; ${o.missed} more fell while the host was down` : ''})`;
  }
  return `${label} changed: ${brief(previous)} -> ${brief(observation)}`;
}

function brief(value: Json): string {
  const text = JSON.stringify(value);
  return text.length > BRIEF_CHARS ? `${text.slice(0, BRIEF_CHARS)}…` : text;
}
