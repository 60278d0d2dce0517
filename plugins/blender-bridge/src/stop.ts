import { killJobProcesses, type JobProcesses } from '@cowork/host';

/** The part of a host this needs: its jobs and a way to close it (a plugin does not import the host itself). */
interface ClosableHost {
  readonly jobs: { list(options: { status: 'running' }): Promise<(JobProcesses & { command: string })[]> };
  close(): Promise<void>;
}

/**
 * Closes the host and stops the Blender processes its scenes left running (they outlive a host on
 * purpose, for the next one to re-attach), then waits until each job's supervisor has recorded the
 * end and exited, so the workspace is quiet (a test or benchmark can remove it). The host closes
 * first because an open session restarts a Blender that stops.
 */
export async function closeHostAndStopBlender(host: ClosableHost, timeoutMs = 30_000): Promise<void> {
  const blenders = (await host.jobs.list({ status: 'running' })).filter((job) => job.command === 'blender');
  await host.close();
  if (!(await killJobProcesses(blenders, timeoutMs))) throw new Error(`Blender jobs still running ${timeoutMs} ms after SIGKILL`);
}
