import type { ResourceApi } from '../plugins/resource-api';
import { errorOutcome, type AgentTool, type ToolOutcome, type WakeConditions } from './agent-tool';
import type { Inbox } from './inbox';

/**
 * Parking: an agent ends its turn with `sleep_until` and a wake condition; the runtime waits for
 * the first one that holds (`waitForWake`) and runs the agent's next turn. Durable state is checked
 * after subscribing, so nothing that happens while parking is missed.
 */

/** What `sleep_until` needs: the clock, and whether a monitor is active and posts to this agent. */
export interface ParkingDeps {
  readonly now: () => Date;
  monitorActive(monitorId: string): Promise<boolean>;
}

/** What waiting needs: where wake-ups come from. */
export interface WakeDeps {
  readonly inbox: Inbox;
  readonly resources: ResourceApi;
  readonly now: () => Date;
  /** Commits by other hosts (Store.watchCommits), whose revisions publish no events here. */
  readonly commits?: (listener: () => void) => () => void;
}

/** The `sleep_until` tool: parks on a time, a resource revision, the Inbox or a monitor's next event. */
export function sleepUntilTool(deps: ParkingDeps): AgentTool {
  return {
      spec: {
        name: 'sleep_until',
        description:
          'Park until a wake condition: a time (until, ISO 8601, or seconds), a resource moving past a revision, a message in your Inbox, ' +
          "or the next message of one of your active monitors (monitorId, from create_monitor). For the goal's next review, park until " +
          'its time, or create an interval or cron monitor and park on it. Without a condition you are not parked.',
        inputSchema: {
          type: 'object',
          properties: {
            until: { type: 'string', description: 'An ISO 8601 time.' },
            seconds: { type: 'number', exclusiveMinimum: 0 },
            resourceId: { type: 'string' },
            afterRevision: { type: 'integer', minimum: 0 },
            inbox: { type: 'boolean' },
            monitorId: { type: 'string', description: 'Wake on the next event of this active monitor.' },
          },
          additionalProperties: false,
        },
      },
      run: async (input) => sleepUntil(input as Record<string, unknown>, deps),
    };
}

async function sleepUntil(input: Record<string, unknown>, deps: ParkingDeps): Promise<ToolOutcome> {
  const at =
    typeof input.until === 'string' ? Date.parse(input.until) : typeof input.seconds === 'number' ? deps.now().getTime() + input.seconds * 1000 : undefined;
  const resource =
    typeof input.resourceId === 'string' ? { resourceId: input.resourceId, afterRevision: typeof input.afterRevision === 'number' ? input.afterRevision : 0 } : undefined;
  const inbox = input.inbox === true;
  const monitorId = typeof input.monitorId === 'string' ? input.monitorId : undefined;
  if (at === undefined && !resource && !inbox && monitorId === undefined) return { content: { parked: false, reason: 'no_wake_condition' } };
  if (at !== undefined && Number.isNaN(at)) return errorOutcome('invalid_input', 'until must be an ISO 8601 time');
  // A cancelled (or someone else's) monitor would never wake Main: refuse rather than sleep forever.
  if (monitorId !== undefined && !(await deps.monitorActive(monitorId))) {
    return { content: { parked: false, reason: 'monitor_not_active', monitorId, hint: 'list_monitors shows your active monitors' } };
  }
  return {
    content: { parked: true, until: at === undefined ? null : new Date(at).toISOString(), resource: resource ?? null, inbox, monitorId: monitorId ?? null },
    control: { type: 'park', wake: { at, resource, inbox, monitorId } },
  };
}


/**
 * Waits for the first wake condition of a parked agent: a timer, a resource moving past a
 * revision, an Inbox message for it, or the next event of one of its monitors (an Inbox message
 * `monitor:<id>:<seq>`). Conditions already true when parking return at once (the durable state
 * is checked after subscribing, so nothing slips between check and wait).
 */
export async function waitForWake(
  deps: WakeDeps,
  target: { taskId: string; agentId: string },
  wake: WakeConditions,
  signal: AbortSignal,
): Promise<'timer' | 'resource' | 'inbox' | 'monitor' | 'aborted'> {
  const cleanups: (() => void)[] = [];
  try {
    return await new Promise<'timer' | 'resource' | 'inbox' | 'monitor' | 'aborted'>((resolve, reject) => {
      if (signal.aborted) return resolve('aborted');
      const onAbort = (): void => resolve('aborted');
      signal.addEventListener('abort', onAbort, { once: true });
      cleanups.push(() => signal.removeEventListener('abort', onAbort));
      if (wake.at !== undefined) {
        const timer = setTimeout(() => resolve('timer'), Math.max(0, wake.at - deps.now().getTime()));
        cleanups.push(() => clearTimeout(timer));
      }
      if (wake.resource) {
        const { resourceId, afterRevision } = wake.resource;
        cleanups.push(deps.resources.subscribe((e) => e.resourceId === resourceId && e.revision > afterRevision && resolve('resource')));
        deps.resources.get(resourceId).then((r) => r.revision > afterRevision && resolve('resource'), reject);
        // Another host's commit: one small read of the history says whether it moved this resource.
        const moved = (): void => void deps.resources.history(resourceId, { after: afterRevision, limit: 1 }).then((h) => h.length > 0 && resolve('resource'), () => undefined);
        if (deps.commits) cleanups.push(deps.commits(moved));
      }
      if (wake.inbox) {
        cleanups.push(deps.inbox.wakeups((m) => m.taskId === target.taskId && m.recipient === target.agentId && resolve('inbox')));
        deps.inbox.pending(target.taskId, target.agentId).then((p) => p.length > 0 && resolve('inbox'), reject);
      }
      if (wake.monitorId !== undefined) {
        const prefix = `monitor:${wake.monitorId}:`;
        const mine = (m: { taskId: string; recipient: string; messageId: string }): boolean =>
          m.taskId === target.taskId && m.recipient === target.agentId && m.messageId.startsWith(prefix);
        cleanups.push(deps.inbox.wakeups((m) => mine(m) && resolve('monitor')));
        deps.inbox.pending(target.taskId, target.agentId).then((p) => p.some(mine) && resolve('monitor'), reject);
      }
    });
  } finally {
    for (const cleanup of cleanups) cleanup();
  }
}
