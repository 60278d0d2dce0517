/**
 * A host the restart test SIGKILLs: it opens the workspace, starts one job that prints
 * `line1` ... `line<seconds>`, one a second, then exits 7, and prints `started <jobId>` once
 * `start` resolved (the job's process is recorded). Then it watches until it is killed.
 *
 * With a third argument `sandbox`, the job is an agent's: sandboxed in the work folder of task
 * `task_restart`, where it also writes each line to `lines.txt`.
 *
 * Usage: node --import tsx host-child.ts <workspaceDir> <seconds> [sandbox]
 */
import { join } from 'node:path';
import { JobService } from '../../src/jobs/job-service';
import { openWorkspaceStore } from '../../src/store/open-store';

async function main(): Promise<void> {
  const [workspaceDir, seconds, mode] = process.argv.slice(2);
  if (!workspaceDir || !seconds) throw new Error('usage: host-child.ts <workspaceDir> <seconds>');
  const store = await openWorkspaceStore(workspaceDir);
  const jobs = await JobService.open({ store, workspaceDir });
  const sandboxed = mode === 'sandbox';
  const echo = sandboxed ? 'echo line$i; echo line$i >> lines.txt' : 'echo line$i';
  const script = `i=1; while [ $i -le ${Number(seconds)} ]; do ${echo}; sleep 1; i=$((i+1)); done; exit 7`;
  const sandbox = sandboxed ? { workDir: join(workspaceDir, 'tasks', 'task_restart', 'work'), create: true } : undefined;
  const job = await jobs.start({ command: 'sh', args: ['-c', script], name: 'countdown' }, { taskId: sandboxed ? 'task_restart' : undefined, sandbox });
  process.stdout.write(`started ${job.id}\n`);
  setInterval(() => undefined, 60_000);
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
