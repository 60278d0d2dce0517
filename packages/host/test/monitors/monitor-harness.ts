import { Host, type HostOptions } from '../../src/host';
import type { MonitorEvent } from '../../src/monitors/monitor-service';
import type { InboxRecord } from '../../src/store/agent-records';
import { tempDir } from '../support/temp-host';

/**
 * A workspace that outlives its host: `open` starts a host on it, `restart` closes that host and
 * opens a new one over the same workspace (what a host restart looks like to monitors).
 */
export interface MonitorWorkspace {
  readonly dir: string;
  host: Host;
  restart(): Promise<Host>;
  dispose(): Promise<void>;
}

export async function monitorWorkspace(options: Partial<HostOptions> = {}): Promise<MonitorWorkspace> {
  const dir = tempDir('cowork-monitors-');
  const ws: MonitorWorkspace = {
    dir: dir.path,
    host: await Host.open({ workspaceDir: dir.path, ...options }),
    async restart() {
      await ws.host.close();
      ws.host = await Host.open({ workspaceDir: dir.path, ...options });
      return ws.host;
    },
    async dispose() {
      await ws.host.close();
      dir.cleanup();
    },
  };
  return ws;
}

/** The Inbox messages a monitor posted, delivered or not, oldest first. */
export async function monitorMessages(host: Host, taskId: string, monitorId: string): Promise<InboxRecord[]> {
  const all = await host.store.read(async (tx) => {
    const found: InboxRecord[] = [];
    for (let seq = 1; ; seq++) {
      const message = await tx.inbox.get(`monitor:${monitorId}:${seq}`);
      if (!message) return found;
      found.push(message);
    }
  });
  return all.filter((m) => m.taskId === taskId);
}

/** Resolves with the next `count` events of one monitor (published after their transaction). */
export function nextEvents(host: Host, monitorId: string, count = 1, timeoutMs = 15_000): Promise<MonitorEvent[]> {
  return new Promise((resolve, reject) => {
    const seen: MonitorEvent[] = [];
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`expected ${count} events of ${monitorId} within ${timeoutMs} ms, got ${seen.length}`));
    }, timeoutMs);
    const stop = host.monitors.onEvent((event) => {
      if (event.monitor.id !== monitorId) return;
      seen.push(event);
      if (seen.length < count) return;
      clearTimeout(timer);
      stop();
      resolve(seen);
    });
  });
}
