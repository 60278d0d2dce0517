// Invariant: a host keeps one Chromium for its web checks, started by the first check (not by the
// host), and each check runs in a fresh context of it; a Chromium that died is started again by the
// next check; closing the host stops it.
import { readdirSync, readFileSync } from 'node:fs';
import { type Json } from '@cowork/host';
import { type Host } from '@cowork/host/embed';
import { openTempHost, type TempHost } from '@cowork/host/testkit';
import { plugin, sampleApp, sharedChromium, type CheckResult } from '../src';

const open = (): Promise<TempHost> => openTempHost({ plugins: [plugin], prefix: 'cowork-web-shared-' });

/** Chromium's main processes started by this test process (read from /proc: no procps needed). */
function chromiumChildren(): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The parent pid is the 4th field of /proc/<pid>/stat, after "pid (comm) state".
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === process.pid && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('chromium')) children.push(Number(entry));
    } catch {
      // the process ended while it was read
    }
  }
  return children;
}

async function until(condition: () => Promise<boolean> | boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await condition()) return;
    await new Promise((done) => setTimeout(done, 50));
  }
  throw new Error(`timed out waiting until ${what}`);
}

async function check(host: Host, id: string): Promise<CheckResult> {
  const result = await host.registry.tool('web_check')!.tool.handler({ resourceId: id, steps: [{ action: 'assert_text', selector: 'h1', contains: 'Packing' }] } as unknown as Json, {
    operator: 'agent:reviewer',
    signal: new AbortController().signal,
    host: { workspaceDir: host.workspaceDir, resources: host.resources },
  });
  return result.content as unknown as CheckResult;
}

it('starts Chromium on the first check, keeps it for the next ones, restarts it after a crash, and stops it on close', async () => {
  const host = await open();
  expect(await sharedChromium().isRunning()).toBe(false);
  expect(chromiumChildren()).toEqual([]);
  const { id } = await host.resources.create({ kind: 'web.app', content: sampleApp('packing-planner'), operator: 'human:ann' });

  expect((await check(host, id)).passed).toBe(true);
  const [browserPid] = chromiumChildren();
  expect(browserPid).toBeDefined();
  expect(await sharedChromium().isRunning()).toBe(true);
  expect((await check(host, id)).passed).toBe(true);
  expect(chromiumChildren()).toEqual([browserPid]);

  process.kill(browserPid!, 'SIGKILL');
  await until(async () => !(await sharedChromium().isRunning()), 'the killed Chromium is seen gone');
  expect((await check(host, id)).passed).toBe(true);
  expect(chromiumChildren()).toHaveLength(1);
  expect(chromiumChildren()).not.toEqual([browserPid]);

  await host.dispose();
  expect(await sharedChromium().isRunning()).toBe(false);
  await until(() => chromiumChildren().length === 0, 'Chromium has exited');
});
