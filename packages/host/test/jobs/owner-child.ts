/**
 * A host on one "machine" for the two-hosts jobs tests, as far as jobs are concerned: it opens the
 * workspace's records (DATABASE_URL), holds its presence lease (HOST_ID, LEASE_MS) as `Host.open`
 * does, and watches jobs every POLL_MS (default 500; a test that must see what another machine's
 * host does alone sets it long). Modes: `start` starts a job (`sleep 600`), prints `started <id>`
 * and runs until killed; `start-exit` does the same, then closes and exits (a CLI command);
 * `idle` starts nothing, prints `ready` and runs until killed.
 *
 * Usage: node --import tsx owner-child.ts <workspaceDir> <start|start-exit|idle>
 */
import { JobService } from '../../src/jobs/job-service';
import { Leases } from '../../src/store/leases/leases';
import { HostPresence } from '../../src/store/leases/presence';
import { openWorkspaceStore } from '../../src/store/open-store';

async function main(): Promise<void> {
  const [workspaceDir, mode] = process.argv.slice(2);
  if (!workspaceDir || !mode) throw new Error('usage: owner-child.ts <workspaceDir> <start|start-exit|idle>');
  const store = await openWorkspaceStore(workspaceDir, { databaseUrl: process.env.DATABASE_URL || undefined });
  const leases = new Leases(store, { hostId: process.env.HOST_ID, durationMs: Number(process.env.LEASE_MS ?? 15_000) });
  const presence = new HostPresence(leases);
  await presence.start();
  const jobs = await JobService.open({ store, workspaceDir, presence, pollMs: Number(process.env.POLL_MS ?? 500) });
  if (mode === 'idle') {
    process.stdout.write('ready\n');
  } else {
    const job = await jobs.start({ command: 'sleep', args: ['600'], name: 'owned' });
    process.stdout.write(`started ${job.id}\n`);
  }
  if (mode === 'start-exit') {
    await jobs.close();
    await presence.stop();
    await leases.close();
    await store.close();
    return;
  }
  setInterval(() => undefined, 60_000);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
