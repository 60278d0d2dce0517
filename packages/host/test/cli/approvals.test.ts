/**
 * Invariant: `cowork approvals` lists the calls waiting for a person, and `cowork approve|deny ID`
 * decides one as the person at the terminal (human:$USER), once; an agent operator is refused.
 */
import { join } from 'node:path';
import { Host } from '../../src/host';
import type { ApprovalRecord } from '../../src/store/approval-records';
import { jsonOf, tempDir, workspaceCli, type ErrorJson } from './cli-harness';

const dir = tempDir();
afterAll(() => dir.cleanup());
const workspace = join(dir.path, 'ws');
const { run, json } = workspaceCli(workspace);

async function waitingCalls(n: number): Promise<ApprovalRecord[]> {
  const host = await Host.open({ workspaceDir: workspace });
  try {
    const made: ApprovalRecord[] = [];
    for (let i = 0; i < n; i++) made.push(await host.approvals.request({ taskId: 'task_1', agentId: 'main', callKey: `task_1/main/1/c${i}`, tool: 'start_job', impact: 'network', input: { command: 'curl' } }));
    return made;
  } finally {
    await host.close();
  }
}

it('lists, approves and denies waiting calls as the person at the terminal', async () => {
  const [first, second] = await waitingCalls(2);
  const listed = await run('approvals');
  expect(listed.stdout).toContain(`${first!.id}  pending  network  start_job {"command":"curl"}`);

  const refused = await run('approve', first!.id, '--operator', 'agent:main', '--json');
  expect(jsonOf<ErrorJson>(refused).error.code).toBe('forbidden');
  expect((await run('approve', first!.id, '--reason', 'fine')).stdout).toContain(`approved ${first!.id} (start_job, network) as human:tester`);
  expect(await json<ApprovalRecord>('deny', second!.id)).toMatchObject({ status: 'denied', decidedBy: 'human:tester' });

  const again = await run('deny', first!.id, '--json');
  expect(jsonOf<ErrorJson>(again).error.code).toBe('invalid_transition');
  expect((await run('approvals')).stdout).toContain('no pending approvals');
  expect((await json<{ approvals: ApprovalRecord[] }>('approvals', '--status', 'all')).approvals.map((a) => [a.status, a.reason])).toEqual([
    ['approved', 'fine'],
    ['denied', null],
  ]);
});
