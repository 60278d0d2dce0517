/**
 * Invariant: a task another process created (a CLI's `cowork run` beside a server) is found by this
 * host's published results and work files at once, not answered `not_found` until a restart.
 */
import { Host } from '../../src/host';
import { tempDir } from '../support/temp-host';
import { recordTask } from '../support/task-work';

it("finds another process's new task for published results and work files", async () => {
  const dir = tempDir();
  const server = await Host.open({ workspaceDir: dir.path });
  const cli = await Host.open({ workspaceDir: dir.path });
  try {
    // The server has read the log before the task exists.
    expect(Object.keys(server.coordinator.current.tasks)).toEqual([]);
    const taskId = await recordTask(cli, 'task_elsewhere');
    expect(await server.publications.list(taskId)).toEqual([]);
    expect(await server.workHistory.files(taskId)).toEqual([]);
    await expect(server.publications.list('task_nowhere')).rejects.toMatchObject({ code: 'not_found' });
    await expect(server.workHistory.log('task_nowhere')).rejects.toMatchObject({ code: 'not_found' });
  } finally {
    await server.close();
    await cli.close();
    dir.cleanup();
  }
});
