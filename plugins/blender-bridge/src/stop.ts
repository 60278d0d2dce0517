/** The part of a host this needs: its jobs and a way to close it (a plugin does not import the host itself). */
interface ClosableHost {
  readonly jobs: { list(options: { status: 'running' }): Promise<{ command: string; pid: number | null; pgid: number | null; supervisorPid: number | null }[]> };
  close(): Promise<void>;
}

const POLL_MS = 50;

/**
 * Closes the host and stops the Blender processes its scenes left running (they outlive a host on
 * purpose, for the next one to re-attach), then waits until each job's supervisor has recorded the
 * end and exited, so the workspace is quiet (a test or benchmark can remove it). The host closes
 * first because an open session restarts a Blender that stops.
 */
export async function closeHostAndStopBlender(host: ClosableHost, timeoutMs = 30_000): Promise<void> {
  const blenders = (await host.jobs.list({ status: 'running' })).filter((job) => job.command === 'blender');
  await host.close();
  for (const job of blenders) {
    if (job.pgid !== null) signal(-job.pgid);
  }
  const pids = blenders.flatMap((job) => [job.pid, job.supervisorPid]).filter((pid): pid is number => pid !== null);
  const deadline = Date.now() + timeoutMs;
  while (pids.some(alive)) {
    if (Date.now() > deadline) throw new Error(`Blender jobs still running ${timeoutMs} ms after SIGKILL: pids ${pids.filter(alive).join(', ')}`);
    await new Promise((done) => setTimeout(done, POLL_MS));
  }
}

function signal(target: number): void {
  try {
    process.kill(target, 'SIGKILL');
  } catch {
    // already gone
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
