/**
 * Invariant: a run records one experiment. A job started with start_run (sandboxed as start_job)
 * that writes metrics.jsonl lines or prints METRIC lines gives its run those metrics; a corrupt
 * line is a problem on the run (its line number and why) and adds nothing, while the good lines
 * count. Main's next request shows the runs digest; a host reopened on the same workspace (as after
 * a SIGKILL and --resume) builds the same digest from the store. Bad input (an artifact outside
 * work/ or runs/<id>/, an unknown run, another task's job) is refused with a clear code.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Host } from '../../src/host';
import { runsDigest } from '../../src/agents/run-digest';
import { taskGate } from '../../src/agents/completion-gate';
import { listingOnce } from '../../src/agents/gate-contributors';
import { readProjectionInputs } from '../../src/agents/projection-inputs';
import { RunningTokenTotals } from '../../src/agents/token-totals';
import type { JobService } from '../../src/jobs/job-service';
import { taskPaths } from '../../src/agents/task-files';
import { tokenizerFor } from '../../src/models/tokenizer';
import { reply } from '../../src/testkit/scripted-model-server';
import type { WireChatRequest } from '../../src/models/wire';
import type { RunRecord } from '../../src/store/run-records';
import { caught } from '../support/temp-host';
import { caller, startRuntime, type RuntimeHarness } from './runtime-harness';

let h: RuntimeHarness;
afterEach(() => h?.dispose());

const system = (body: WireChatRequest): string => String(body.messages[0]?.content ?? '');

async function waitEnded(taskId: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const jobs = await h.host.jobs.list({ taskId });
    if (jobs.length > 0 && jobs.every((j) => j.status !== 'running')) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the job did not end');
}

const SCRIPT = [
  'printf \'{"step":1,"loss":0.5,"acc":0.7}\\n\' >> metrics.jsonl',
  'printf \'{"name":"loss","value":0.25,"step":2}\\n\' >> metrics.jsonl',
  'printf \'{"step":3,"loss":"oops"}\\n\' >> metrics.jsonl',
  'printf \'not json\\n\' >> metrics.jsonl',
  'echo "METRIC acc=0.9 step=2"',
].join('; ');

it('a sandboxed start_run job writes metrics: the run has them, bad lines are problems, the digest shows them and a reopened host builds the same digest', async () => {
  let taskId = '';
  h = await startRuntime(async (body, index) => {
    if (caller(body) !== 'main') return reply.text('?');
    if (index === 0) {
      return reply.toolCalls([{ id: 'c0', name: 'start_run', arguments: { name: 'baseline', params: { lr: 0.1 }, command: 'sh', args: ['-c', SCRIPT], artifacts: ['work/model.pt'] } }]);
    }
    if (index === 1) {
      await waitEnded(taskId);
      return reply.toolCalls([{ id: 'c1', name: 'list_runs', arguments: {} }]);
    }
    return reply.text('done for now');
  });
  taskId = await h.runtime.startTask('train a model');
  const result = await h.runtime.runTask(taskId);
  expect(result.status).toBe('waiting');

  const [run] = await h.host.runs.list(taskId);
  expect(run).toMatchObject({ name: 'baseline', status: 'succeeded', params: { lr: 0.1 }, artifacts: ['work/model.pt'], problemCount: 2 });
  expect(run!.metrics.loss).toEqual({ last: 0.25, lastStep: 2, best: 0.25, bestStep: 2, direction: 'min', count: 2 });
  expect(run!.metrics.acc).toEqual({ last: 0.9, lastStep: 2, best: 0.9, bestStep: 2, direction: 'max', count: 2 });
  expect(run!.problems).toEqual([
    { jobId: run!.sources[0]!.jobId, file: 'metrics.jsonl', line: 3, reason: 'value of "loss" must be a finite number' },
    { jobId: run!.sources[0]!.jobId, file: 'metrics.jsonl', line: 4, reason: expect.stringContaining('not JSON') },
  ]);
  expect((await h.host.runs.series(taskId, run!.id, 'loss')).map((p) => [p.step, p.value])).toEqual([[1, 0.5], [2, 0.25]]);
  // The mirror for people.
  const mirror = JSON.parse(readFileSync(join(taskPaths(h.host.workspaceDir, taskId).runs, run!.id, 'run.json'), 'utf8'));
  expect(mirror).toMatchObject({ id: run!.id, status: 'succeeded', metrics: { loss: { best: 0.25 } } });

  // Main's request after the job ended carries the digest with the metrics.
  const later = h.server.requests[2]!;
  expect(system(later)).toContain('Runs (1, newest first):');
  expect(system(later)).toContain('loss 0.25 @2 (best 0.25 @2, min)');
  expect(system(later)).toContain('Best: acc 0.9 (max) in "baseline"');

  // Reading again adds nothing; a host reopened on the same store builds the same digest.
  const before = await runsDigest(h.host, taskId);
  expect(before).toContain('2 bad metrics lines');
  const dir = h.host.workspaceDir;
  await h.host.close();
  const reopened = await Host.open({ workspaceDir: dir, pollMonitors: false });
  try {
    expect(await runsDigest(reopened, taskId)).toBe(before);
    expect((await reopened.runs.list(taskId))[0]!.metrics.loss!.count).toBe(2);
  } finally {
    await reopened.close();
  }
  // dispose closes the host again: give it a fresh one on the same folder.
  h.host = Object.assign(await Host.open({ workspaceDir: dir, pollMonitors: false }), { dispose: h.host.dispose }) as never;
}, 20_000);

it('reads metrics incrementally while the job runs; the digest shows what changed against the previous run and stays within its budget', async () => {
  h = await startRuntime(() => reply.text('ok'));
  const taskId = await h.runtime.startTask('sweep');
  const work = taskPaths(h.host.workspaceDir, taskId).work;
  const sandbox = { workDir: work, create: true };
  const first = await h.host.runs.start({ taskId, name: 'lr small', params: { lr: 0.01, seed: 1 }, job: { command: 'sh', args: ['-c', 'echo \'{"loss": 1}\' > metrics.jsonl'] }, sandbox, operator: 'agent:main' });
  await waitEnded(taskId);
  expect((await h.host.runs.get(taskId, first.id)).metrics.loss?.last).toBe(1);
  // A second run in the same folder does not see the first one's lines; a partial line waits for its newline.
  const second = await h.host.runs.start({
    taskId,
    name: 'lr big',
    params: { lr: 0.1, seed: 1 },
    // The wait is bounded (30 s): a failed assertion before `go` is written must not leave the job running.
    job: { command: 'sh', args: ['-c', 'printf \'{"loss": 0.5}\\n{"loss": 0.4\' >> metrics.jsonl; i=0; while [ ! -e go ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done; printf \'}\\n\' >> metrics.jsonl'] },
    sandbox,
    operator: 'agent:main',
  });
  for (let i = 0; i < 200 && (await h.host.runs.get(taskId, second.id)).metrics.loss === undefined; i++) await new Promise((r) => setTimeout(r, 25));
  const running = await h.host.runs.get(taskId, second.id);
  expect(running).toMatchObject({ status: 'running', metrics: { loss: { last: 0.5, count: 1 } }, problemCount: 0 });
  const digest = await runsDigest(h.host, taskId);
  expect(digest).toContain('changed vs "lr small": lr 0.01→0.1');
  expect(digest).toContain('Jobs running:');
  // Main's projection asks once for both its gate and its digest, and both see the running job.
  let jobLists = 0;
  const counted: Pick<JobService, 'list' | 'logs'> = {
    list: (options) => ((jobLists += 1), h.host.jobs.list(options)),
    logs: (id, query) => h.host.jobs.logs(id, query),
  };
  const live = listingOnce(counted, h.host.monitors);
  expect((await taskGate(h.host, taskId, [], { listers: live })).map((b) => b.kind)).toContain('running_job');
  expect(await runsDigest({ runs: h.host.runs, ...live }, taskId)).toBe(digest);
  expect(jobLists).toBe(1);
  // Read in one transaction with the rest of Main's projection, a running job and a live run are
  // still reconciled by the services first: the same gate and digest.
  const whileRunning = await readProjectionInputs(h.host, taskId, new RunningTokenTotals(taskId));
  expect((await taskGate(h.host, taskId, [], whileRunning)).map((b) => b.kind)).toContain('running_job');
  expect(await runsDigest({ runs: whileRunning.runs, ...whileRunning.listers }, taskId)).toBe(digest);
  writeFileSync(join(work, 'go'), '');
  await waitEnded(taskId);
  expect((await h.host.runs.get(taskId, second.id))).toMatchObject({ status: 'succeeded', metrics: { loss: { last: 0.4, best: 0.4, count: 2 } }, problemCount: 0 });
  // Nothing running or following any more: the projection's inputs come from that one read alone,
  // and answer as the services do.
  const reads = jest.spyOn(h.host.store, 'read');
  const settled = await readProjectionInputs(h.host, taskId, new RunningTokenTotals(taskId));
  const settledDigest = await runsDigest({ runs: settled.runs, ...settled.listers }, taskId);
  expect(await settled.listers.jobs.list({ status: 'running', taskId })).toEqual([]);
  expect(reads).toHaveBeenCalledTimes(1);
  reads.mockRestore();
  expect(settledDigest).toBe(await runsDigest(h.host, taskId));
  expect(settledDigest).not.toContain('Jobs running:');
  expect(settled.pendingForMain).toEqual(await h.host.store.read((tx) => tx.inbox.pending(taskId, 'main')));
  expect(settled.tokensUsed).toBe((await new RunningTokenTotals(taskId).read(h.host.store)).total);

  // Many runs: the digest is cut at its budget with a count of the rest.
  for (let i = 0; i < 30; i++) {
    await h.host.runs.record({ taskId, jobId: first.sources[0]!.jobId, name: `repeat ${i} with a longer name to fill the budget`, params: { i }, operator: 'agent:main' });
  }
  const small = await runsDigest(h.host, taskId, { maxTokens: 200 });
  expect(small).toMatch(/… \d+ more runs/);
  expect(tokenizerFor().countText(small)).toBeLessThanOrEqual(200);
}, 20_000);

it('refuses bad input: an artifact outside work/ or runs/<id>/, an unknown run, another task\'s job, a run without a job', async () => {
  h = await startRuntime(() => reply.text('ok'));
  const taskId = await h.runtime.startTask('t');
  const other = await h.runtime.startTask('u');
  const sandbox = { workDir: taskPaths(h.host.workspaceDir, taskId).work, create: true };
  const job = { command: 'true' };
  const outside = await caught(() => h.host.runs.start({ taskId, name: 'x', job, sandbox, operator: 'agent:main', artifacts: ['../../secret'] }));
  expect(outside.code).toBe('invalid_input');
  const notScope = await caught(() => h.host.runs.start({ taskId, name: 'x', job, sandbox, operator: 'agent:main', artifacts: ['memory.md'] }));
  expect(notScope).toMatchObject({ code: 'invalid_input', details: { reason: 'outside_run_scope' } });
  // Nothing was started or recorded for the refused calls.
  expect(await h.host.runs.list(taskId)).toEqual([]);
  expect(await h.host.jobs.list({ taskId })).toEqual([]);
  expect((await caught(() => h.host.runs.get(taskId, 'run_nope'))).code).toBe('not_found');
  const run: RunRecord = await h.host.runs.start({ taskId, name: 'ok', job, sandbox, operator: 'agent:main' });
  expect((await caught(() => h.host.runs.get(other, run.id))).code).toBe('not_found');
  expect((await caught(() => h.host.runs.record({ taskId: other, jobId: run.sources[0]!.jobId, name: 'steal', operator: 'agent:main' }))).code).toBe('permission_denied');
  expect((await caught(() => h.host.runs.record({ taskId, name: 'nothing', operator: 'agent:main' }))).code).toBe('invalid_input');
  // Tools answer the same errors as results the model can read.
  const tool = h.host.registry.tool('run_status')!.tool;
  const answer = await tool.handler({ runId: 'run_nope' }, { operator: 'agent:main', taskId, agentId: 'main', signal: new AbortController().signal, host: h.host as never });
  expect(answer).toMatchObject({ isError: true, content: { error: { code: 'not_found' } } });
  expect(existsSync(join(taskPaths(h.host.workspaceDir, taskId).runs, run.id, 'run.json'))).toBe(true);
});
