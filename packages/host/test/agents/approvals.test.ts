/**
 * Invariant: a high-impact call (a tool its plugin marks so, a job with network) runs only when the
 * workspace's policy allows it or a person approved that very call: under `ask` it parks on a
 * pending approval and runs once approved, or answers `denied` and does nothing; the decision is
 * recorded with its person; only a person decides; a call waiting when the runtime stops finds the
 * same approval when its turn resumes.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AgentRuntime } from '../../src/agents/runtime';
import { definePlugin, defineTool } from '../../src/plugins/define-plugin';
import { caught } from '../support/temp-host';
import { mainCalls, nextPendingApproval, startRuntime, type RuntimeHarness } from './runtime-harness';

let h: RuntimeHarness;
afterEach(() => h.dispose());

const ran: string[] = [];
const probe = definePlugin({
  name: 'probe',
  version: '1.0.0',
  tools: [
    defineTool({
      name: 'launch',
      description: 'Launches the rocket.',
      inputSchema: { type: 'object', properties: { n: { type: 'integer' } } },
      permissions: [],
      impact: 'high_impact',
      handler: async (input) => {
        ran.push(`launch ${JSON.stringify(input)}`);
        return { content: 'launched' };
      },
    }),
    defineTool({
      name: 'look',
      description: 'Looks around.',
      inputSchema: { type: 'object' },
      permissions: [],
      handler: async () => {
        ran.push('look');
        return { content: 'nothing here' };
      },
    }),
  ],
});



beforeEach(() => (ran.length = 0));

it('parks a high-impact call until a person approves it, then runs it once; a denied one does nothing', async () => {
  h = await startRuntime(mainCalls([['look', {}], ['launch', { n: 1 }], ['launch', { n: 2 }]]), { plugins: [probe] });
  const taskId = await h.runtime.startTask('launch twice');
  const run = h.runtime.runTask(taskId);

  const first = await nextPendingApproval(h.host);
  expect(first).toMatchObject({ taskId, agentId: 'main', tool: 'launch', impact: 'high_impact', input: { n: 1 }, status: 'pending', decidedBy: null });
  // The ordinary call ran; the high-impact one waits.
  expect(ran).toEqual(['look']);
  await new Promise((r) => setTimeout(r, 200));
  expect(ran).toEqual(['look']);
  // Only a person decides.
  expect((await caught(() => h.host.approvals.decide(first.id, 'approved', 'agent:main'))).code).toBe('forbidden');
  const second = nextPendingApproval(h.host);
  await h.host.approvals.decide(first.id, 'approved', 'human:ann', 'go');
  const pendingSecond = await second;
  expect(ran).toEqual(['look', 'launch {"n":1}']);
  await h.host.approvals.decide(pendingSecond.id, 'denied', 'human:ann', 'not twice');

  const result = await run;
  expect(result.status).toBe('done');
  const summary = (result as { summary: string }).summary;
  expect(summary).toContain('launched');
  expect(summary).toContain('"code":"denied"');
  expect(summary).toContain('not twice');
  expect(ran).toEqual(['look', 'launch {"n":1}']);
  // The decisions are on record, with their person and reason; deciding again is refused.
  const decided = await h.host.approvals.list({ taskId });
  expect(decided.map((a) => [a.status, a.decidedBy, a.reason])).toEqual([
    ['approved', 'human:ann', 'go'],
    ['denied', 'human:ann', 'not twice'],
  ]);
  expect((await caught(() => h.host.approvals.decide(first.id, 'denied', 'human:bob'))).code).toBe('invalid_transition');
});

it('follows the workspace policy: allow runs at once, deny refuses at once, a broken policy refuses', async () => {
  h = await startRuntime(mainCalls([['launch', { n: 1 }]]), { plugins: [probe] });
  const policy = join(h.host.workspaceDir, 'policy.json');

  writeFileSync(policy, JSON.stringify({ approvals: { high_impact: 'allow' } }));
  let taskId = await h.runtime.startTask('allowed');
  expect(await h.runtime.runTask(taskId)).toEqual({ status: 'done', summary: 'launched' });
  expect(ran).toEqual(['launch {"n":1}']);

  writeFileSync(policy, JSON.stringify({ approvals: { high_impact: 'deny' } }));
  taskId = await h.runtime.startTask('denied by policy');
  const denied = await h.runtime.runTask(taskId);
  expect((denied as { summary: string }).summary).toContain('"code":"denied"');

  writeFileSync(policy, JSON.stringify({ approvals: { high_impact: 'sometimes' } }));
  taskId = await h.runtime.startTask('broken policy');
  const broken = await h.runtime.runTask(taskId);
  expect((broken as { summary: string }).summary).toContain('"code":"invalid_config"');
  expect(ran).toEqual(['launch {"n":1}']);
  expect(await h.host.approvals.list()).toEqual([]);
});

it('asks before a job with network starts, and starts it once approved', async () => {
  h = await startRuntime(
    mainCalls([
      ['start_job', { command: 'sh', args: ['-c', 'echo reached > net-marker'], network: true }],
      ['start_job', { command: 'sh', args: ['-c', 'echo offline'] }],
    ]),
    { plugins: [probe] },
  );
  const taskId = await h.runtime.startTask('fetch things');
  const run = h.runtime.runTask(taskId);
  const pending = await nextPendingApproval(h.host);
  expect(pending).toMatchObject({ tool: 'start_job', impact: 'network' });
  expect(await h.host.jobs.list()).toEqual([]);
  await h.host.approvals.decide(pending.id, 'approved', 'human:ann');
  await run;
  // The network job started after the approval; the job without network needed none.
  expect((await h.host.jobs.list()).length).toBe(2);
  expect(await h.host.approvals.list()).toHaveLength(1);
});

it('runs a command outside the sandbox only after a person approves that call', async () => {
  // Both write beside the workspace's database: only a job outside the sandbox can.
  const escape = (name: string): [string, Record<string, unknown>] => ['start_job', { command: 'sh', args: ['-c', `echo out > ../../../${name}`], sandbox: false }];
  h = await startRuntime(mainCalls([escape('denied-marker'), escape('approved-marker')]), { plugins: [probe] });
  const taskId = await h.runtime.startTask('run outside');
  const run = h.runtime.runTask(taskId);
  const first = await nextPendingApproval(h.host);
  expect(first).toMatchObject({ tool: 'start_job', impact: 'unsandboxed' });
  const second = nextPendingApproval(h.host);
  await h.host.approvals.decide(first.id, 'denied', 'human:ann');
  await h.host.approvals.decide((await second).id, 'approved', 'human:ann');
  await run;
  const jobs = await h.host.jobs.list();
  expect(jobs).toHaveLength(1);
  for (let i = 0; i < 100 && (await h.host.jobs.get(jobs[0]!.id)).status === 'running'; i++) await new Promise((r) => setTimeout(r, 50));
  expect(existsSync(join(h.host.workspaceDir, 'approved-marker'))).toBe(true);
  expect(existsSync(join(h.host.workspaceDir, 'denied-marker'))).toBe(false);
});

it('a call waiting when the runtime stops finds the same approval when its turn resumes', async () => {
  h = await startRuntime(mainCalls([['launch', { n: 7 }]]), { plugins: [probe] });
  const taskId = await h.runtime.startTask('launch after a restart');
  const run = h.runtime.runTask(taskId);
  const pending = await nextPendingApproval(h.host);
  await h.runtime.close();
  await run.catch(() => undefined);
  expect(ran).toEqual([]);

  // A new runtime on the same host resumes the turn: the same call, the same approval.
  const runtime = new AgentRuntime({ host: h.host, provider: (h.runtime as unknown as { options: { provider: never } }).options.provider, maxOutputTokens: 1000 });
  try {
    const resumed = runtime.runTask(taskId);
    await new Promise((r) => setTimeout(r, 300));
    expect(await h.host.approvals.list()).toEqual([pending]);
    await h.host.approvals.decide(pending.id, 'approved', 'human:ann');
    expect(await resumed).toEqual({ status: 'done', summary: 'launched' });
    expect(ran).toEqual(['launch {"n":7}']);
    expect((await h.host.approvals.list()).map((a) => a.id)).toEqual([pending.id]);
  } finally {
    await runtime.close();
  }
});
