/**
 * Invariant: with two hosts on one workspace (one SQLite file, or one PostgreSQL database), only
 * the host holding the `monitors` lease polls: a command monitor's command runs once per poll,
 * not once per host, so every run but the one in flight is an event; when that host closes, the
 * other takes the polling over and the monitor goes on firing, each event once.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Host } from '../../src/host';
import { storeBackends } from '../support/store-backends';
import { until } from '../agents/crash/spawn-host';
import { tempDir } from '../support/temp-host';
import { monitorMessages } from './monitor-harness';

const TASK = 'task_polled';

describe.each(storeBackends())('on $name', (backend) => {
  beforeAll(() => backend.start(), 120_000);
  afterAll(() => backend.stop());

  it('two hosts: one polls, the other takes over when it stops', async () => {
    const dir = tempDir('cowork-one-poller-');
    const database = await backend.database();
    const options = { workspaceDir: dir.path, ...database, leases: { durationMs: 900 } };
    const a = await Host.open(options);
    let b: Host | undefined;
    try {
      // Each run of the command appends a line and reports how many there are: every run is a change.
      const monitor = await a.monitors.create({ kind: 'command', command: 'sh', args: ['-c', 'echo run >> runs.txt; wc -l < runs.txt'], intervalSeconds: 1 }, { owner: { taskId: TASK } });
      // B opens knowing the monitor: without the lease it would poll it too.
      b = await Host.open(options);
      const runs = (): number => readFileSync(join(dir.path, 'runs.txt'), 'utf8').split('\n').filter(Boolean).length;
      const seq = async (): Promise<number> => (await b!.monitors.get(monitor.id)).seq;

      await until(async () => (await seq()) >= 4, 'four events while A polls');
      const [eventsA, runsA] = [await seq(), runs()];
      // The baseline run, one run per event, and at most one run in flight: nobody else ran it.
      expect(runsA - 1 - eventsA).toBeLessThanOrEqual(1);

      await a.close();
      await until(async () => (await seq()) >= eventsA + 3, 'B to take the polling over');
      await b.close();
      b = undefined;
      const check = await Host.open({ ...options, pollMonitors: false });
      try {
        const events = (await check.monitors.get(monitor.id)).seq;
        // Besides the baseline and one event per run, at most the run each host had in flight when it closed.
        expect(runs() - 1 - events).toBeLessThanOrEqual(2);
        const messages = await monitorMessages(check, TASK, monitor.id);
        expect(messages.map((m) => m.messageId)).toEqual(Array.from({ length: events }, (_, i) => `monitor:${monitor.id}:${i + 1}`));
      } finally {
        await check.close();
      }
    } finally {
      await b?.close();
      await a.close();
      dir.cleanup();
    }
  }, 60_000);
});
