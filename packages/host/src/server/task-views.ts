import { readTaskView } from '../agents/task-view';
import type { Host } from '../host';
import type { TaskRunner } from './task-runner';

/**
 * A task as the API returns it: the runtime's task view (agents/task-view.ts) and whether this
 * server runs the task's Main loop now.
 */
export async function taskResponse(host: Host, runner: TaskRunner, taskId: string): Promise<Record<string, unknown>> {
  const view = await readTaskView(host, taskId, { gate: runner.runtime?.gateContributors });
  return {
    task: view.task,
    running: runner.isRunning(taskId),
    assignments: view.assignments.map((a) => a.state),
    inbox: view.inbox,
    jobs: view.jobs,
    monitors: view.monitors,
    gate: view.gate,
  };
}
