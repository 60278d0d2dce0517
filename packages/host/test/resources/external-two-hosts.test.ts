/**
 * Invariant: one host at a time drives an external resource's application, across processes and
 * machines, under a lease in the store (`external:<resource id>`). While a host holds it (renewing
 * it, here over several lease durations) another host's commit is refused with
 * `external_unavailable` (`held_by_another_host`) and reaches no application; once the holder is
 * SIGKILLed the other host takes over: on one machine (one SQLite file) at once, its pid being
 * gone, from another machine (PostgreSQL, other host ids) once its lease has ended. A host that
 * closes releases the lease: the next host drives the application at once.
 */
import { spawnTsx, type TsxChild } from '../support/tsx-child';
import { resolve } from 'node:path';
import { Host } from '../../src/host';
import { FakeApp, scenePlugin } from '../support/fake-external-app';
import { storeBackends } from '../support/store-backends';
import { caught, tempDir } from '../support/temp-host';

const LEASE_MS = 1500;
const PACKAGE_DIR = resolve(__dirname, '../..');

/** external-child.ts: a host that commits `add <name>` to the resource and then holds its session. */
function spawnHolder(dir: string, resourceId: string, env: Record<string, string>): TsxChild & { holding: Promise<void> } {
  const child = spawnTsx(resolve(__dirname, 'external-child.ts'), [dir, resourceId, '0', 'cube'], { cwd: PACKAGE_DIR, env: { LEASE_MS: String(LEASE_MS), ...env } });
  return { ...child, holding: child.printed(/holding\n/, 'holding').then(() => undefined) };
}

describe.each(storeBackends())('on $name', (backend) => {
  beforeAll(() => backend.start(), 120_000);
  afterAll(() => backend.stop());
  // PostgreSQL: the hosts play two machines; SQLite: one machine, one workspace file.
  const machines = backend.name === 'PostgreSQL';
  const hostEnv = (id: string): Record<string, string> => (machines ? { HOST_ID: id } : {});
  const leases = (id: string) => ({ durationMs: LEASE_MS, ...(machines && { hostId: id }) });

  it('a second host is refused while the first drives the application, and takes over after the first is SIGKILLed', async () => {
    const dir = tempDir('cowork-external-hosts-');
    const database = await backend.database();
    const appB = new FakeApp();
    const open = (id: string, app: FakeApp) => Host.open({ workspaceDir: dir.path, ...database, plugins: [scenePlugin(app)], externalPollMs: 0, pollMonitors: false, leases: leases(id) });
    let b: Host | undefined = await open('machine-b', appB);
    let c: Host | undefined;
    const { id } = await b!.resources.create({ kind: 'scene.ext', operator: 'human:ann' });
    const a = spawnHolder(dir.path, id, { ...(database.databaseUrl && { DATABASE_URL: database.databaseUrl }), ...hostEnv('machine-a') });
    try {
      await a.holding;
      const commit = () => b!.resources.commit(id, { baseRevision: 1, op: { type: 'add', name: 'wheel' }, operator: 'agent:b' });
      const holder = machines ? new RegExp(`^machine-a:${a.proc.pid}:`) : new RegExp(`:${a.proc.pid}:`);
      // Refused now, and still refused after several lease durations: the holder renews its lease.
      for (const wait of [0, 3 * LEASE_MS]) {
        await new Promise((r) => setTimeout(r, wait));
        const refused = await caught(commit);
        expect([refused.code, refused.details?.reason, refused.details?.holder]).toEqual(['external_unavailable', 'held_by_another_host', expect.stringMatching(holder)]);
        expect(refused.message).toMatch(/make the change through that host, or stop it/);
      }
      expect(appB.opens).toBe(0);

      a.proc.kill('SIGKILL');
      await a.exited;
      const killedAt = Date.now();
      let refusals = 0;
      for (;;) {
        try {
          expect(await commit()).toEqual({ resourceId: id, revision: 2 });
          break;
        } catch (error) {
          expect(error).toMatchObject({ code: 'external_unavailable', details: { reason: 'held_by_another_host' } });
          refusals += 1;
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      // One machine: the holder's pid is gone, taken at once. Another machine: once its lease ended.
      if (machines) {
        expect(refusals).toBeGreaterThan(0);
        expect(Date.now() - killedAt).toBeLessThan(LEASE_MS + 5000);
      } else {
        expect(refusals).toBe(0);
      }
      expect(appB.shapes).toEqual(['cube', 'wheel']);

      // A host that closes releases the lease at once.
      await b.close();
      b = undefined;
      const appC = new FakeApp();
      c = await open('machine-c', appC);
      expect(await c.resources.commit(id, { baseRevision: 2, op: { type: 'add', name: 'roof' }, operator: 'agent:c' })).toEqual({ resourceId: id, revision: 3 });
      expect(appC.shapes).toEqual(['cube', 'wheel', 'roof']);
    } finally {
      a.proc.kill('SIGKILL');
      await c?.close();
      await b?.close();
      dir.cleanup();
    }
  }, 60_000);
});
