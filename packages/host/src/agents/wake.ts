import type { Inbox } from './inbox';
import type { ResourceApi } from '../plugins/resource-api';
import type { WakeConditions } from './agent-tool';

/**
 * Waits for the first wake condition of a parked agent: a timer, a resource moving past a
 * revision, an Inbox message for it, or the next event of one of its monitors (an Inbox message
 * `monitor:<id>:<seq>`). Conditions already true when parking return at once (the durable state
 * is checked after subscribing, so nothing slips between check and wait).
 */
export async function waitForWake(
  deps: { inbox: Inbox; resources: ResourceApi; now: () => Date },
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
      }
      if (wake.inbox) {
        cleanups.push(deps.inbox.subscribe((m) => m.taskId === target.taskId && m.recipient === target.agentId && resolve('inbox')));
        deps.inbox.pending(target.taskId, target.agentId).then((p) => p.length > 0 && resolve('inbox'), reject);
      }
      if (wake.monitorId !== undefined) {
        const prefix = `monitor:${wake.monitorId}:`;
        const mine = (m: { taskId: string; recipient: string; messageId: string }): boolean =>
          m.taskId === target.taskId && m.recipient === target.agentId && m.messageId.startsWith(prefix);
        cleanups.push(deps.inbox.subscribe((m) => mine(m) && resolve('monitor')));
        deps.inbox.pending(target.taskId, target.agentId).then((p) => p.some(mine) && resolve('monitor'), reject);
      }
    });
  } finally {
    for (const cleanup of cleanups) cleanup();
  }
}
