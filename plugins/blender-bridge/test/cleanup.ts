import type { Host } from '@cowork/host';

/**
 * Closes the host, then kills the Blender jobs it left running. In this order because an open
 * session restarts a Blender that stops (a cancelled job included) on the next poll or commit.
 */
export async function closeHostAndBlender(host: Host): Promise<void> {
  const running = await host.jobs.list({ status: 'running' });
  await host.close();
  for (const job of running) {
    try {
      if (job.pgid !== null) process.kill(-job.pgid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}
