/**
 * Invariant: a plugin's tools record the task's runs the way agents do (ToolHostApi.runs). A
 * plugin's own command started with runs.startJob becomes a host job of the task whose metrics file
 * (named by the plugin, relative to the job's folder) feeds the run; a result the plugin computed is
 * a finished run with its points; both appear in list_runs and Main's digest. A call resumed under
 * the same key answers the same run; bad metrics refuse the whole result and record nothing.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { taskRunsApi } from '../../src/agents/task-runs-api';
import { definePlugin, defineTool } from '../../src/plugins/define-plugin';
import { asToolResult } from '../../src/plugins/tool-result';
import type { Json } from '../../src/store/records';
import { reply } from '../../src/testkit/scripted-model-server';
import type { WireChatRequest } from '../../src/models/wire';
import { caller, startRuntime, type RuntimeHarness } from './runtime-harness';

let h: RuntimeHarness;
afterEach(() => h?.dispose());

const system = (body: WireChatRequest): string => String(body.messages[0]?.content ?? '');

const probe = definePlugin({
  name: 'probe',
  version: '0.0.0',
  description: 'records runs',
  tools: [
    defineTool<{ dir: string }>({
      name: 'probe_train',
      description: 'starts the plugin job',
      inputSchema: { type: 'object', properties: { dir: { type: 'string' } }, required: ['dir'], additionalProperties: false },
      permissions: [],
      handler: (input, ctx) =>
        asToolResult(async () => {
          // The plugin's own folder in the workspace, outside any task's work/.
          mkdirSync(join(ctx.host.workspaceDir, input.dir, 'out'), { recursive: true });
          const script = 'printf \'{"step":1,"loss":0.9}\\n{"step":2,"loss":0.4}\\n\' >> out/metrics.jsonl; echo "METRIC tokens=120 step=2"';
          return ctx.host.runs!.startJob({
            name: 'probe training',
            params: { lr: 0.01 },
            job: { command: 'sh', args: ['-c', script], cwd: input.dir },
            metricsFile: 'out/metrics.jsonl',
            idempotencyKey: ctx.idempotencyKey,
          });
        }),
    }),
    defineTool<{ metrics: Json[] }>({
      name: 'probe_score',
      description: 'records a result',
      inputSchema: { type: 'object', properties: { metrics: { type: 'array' } }, required: ['metrics'], additionalProperties: false },
      permissions: [],
      handler: (input, ctx) =>
        asToolResult(() => ctx.host.runs!.recordResult({ name: 'probe evaluation', metrics: input.metrics, goal: { metric: 'pass', direction: 'max' }, idempotencyKey: ctx.idempotencyKey })),
    }),
  ],
});

async function waitEnded(taskId: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const jobs = await h.host.jobs.list({ taskId });
    if (jobs.length > 0 && jobs.every((j) => j.status !== 'running')) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the job did not end');
}

it("a plugin's job and a plugin's computed result are the task's runs, in the digest; bad metrics record nothing", async () => {
  let taskId = '';
  const results: string[] = [];
  h = await startRuntime(
    async (body, index) => {
      if (caller(body) !== 'main') return reply.text('?');
      const last = body.messages.at(-1);
      if (last?.role === 'tool') results.push(String(last.content));
      if (index === 0) return reply.toolCalls([{ id: 'c0', name: 'probe_train', arguments: { dir: 'probe/round-1' } }]);
      if (index === 1) {
        await waitEnded(taskId);
        return reply.toolCalls([{ id: 'c1', name: 'probe_score', arguments: { metrics: [{ name: 'pass', value: 0.5 }, { step: 1, pass: 0.75, rubric: 0.8 }] } }]);
      }
      if (index === 2) return reply.toolCalls([{ id: 'c2', name: 'probe_score', arguments: { metrics: [{ pass: 0.5 }, { pass: 'high' }] } }]);
      return reply.text('done for now');
    },
    { plugins: [probe] },
  );
  taskId = await h.runtime.startTask('train and score');
  await h.runtime.runTask(taskId);

  const runs = await h.host.runs.list(taskId);
  expect(runs.map((r) => r.name).sort()).toEqual(['probe evaluation', 'probe training']);
  const training = runs.find((r) => r.name === 'probe training')!;
  expect(training).toMatchObject({ status: 'succeeded', params: { lr: 0.01 }, problemCount: 0 });
  expect(training.metrics.loss).toMatchObject({ last: 0.4, lastStep: 2, best: 0.4, direction: 'min', count: 2 });
  expect(training.metrics.tokens).toMatchObject({ last: 120, lastStep: 2 });
  const job = await h.host.jobs.get(training.sources[0]!.jobId);
  expect(job.taskId).toBe(taskId);
  expect(job.cwd).toBe(join(h.host.workspaceDir, 'probe', 'round-1'));

  const evaluation = runs.find((r) => r.name === 'probe evaluation')!;
  expect(evaluation).toMatchObject({ status: 'succeeded', sources: [], goal: { metric: 'pass', direction: 'max' } });
  expect(evaluation.endedAt).toBe(evaluation.startedAt);
  expect(evaluation.metrics.pass).toMatchObject({ last: 0.75, best: 0.75, count: 2 });
  expect(evaluation.metrics.rubric).toMatchObject({ last: 0.8, count: 1 });
  expect((await h.host.runs.series(taskId, evaluation.id, 'pass')).map((p) => [p.step, p.value])).toEqual([[null, 0.5], [1, 0.75]]);

  // The refused result: a clear error naming the line, and no third run.
  expect(results.at(-1)).toContain('invalid_input');
  expect(results.at(-1)).toContain('metrics[1]: value of \\"pass\\" must be a finite number');
  expect(runs).toHaveLength(2);

  // Main's next request carries both in its digest.
  const lastMain = h.server.requests.filter((r) => caller(r) === 'main').at(-1)!;
  expect(system(lastMain)).toContain('"probe training"');
  expect(system(lastMain)).toContain('"probe evaluation"');
});

it('a resumed call (same key) answers the same run and starts no second job', async () => {
  h = await startRuntime(() => reply.text('idle'));
  const taskId = await h.runtime.startTask('idle');
  mkdirSync(join(h.host.workspaceDir, 'probe'), { recursive: true });
  const api = taskRunsApi(h.host.runs, { taskId, operator: 'agent:main' });
  const start = () => api.startJob({ name: 'once', job: { command: 'sh', args: ['-c', 'echo METRIC x=1'], cwd: 'probe' }, idempotencyKey: 'call-1' });
  const first = (await start()) as { id: string; jobIds: string[] };
  const second = (await start()) as { id: string; jobIds: string[] };
  expect(second.id).toBe(first.id);
  expect(second.jobIds).toEqual(first.jobIds);
  expect(await h.host.jobs.list({ taskId })).toHaveLength(1);
  const record = () => api.recordResult({ name: 'score', metrics: [{ pass: 1 }], idempotencyKey: 'call-2' });
  expect(((await record()) as { id: string }).id).toBe(((await record()) as { id: string }).id);
  expect(await h.host.runs.stored(taskId)).toHaveLength(2);
  // A metrics file outside the job's folder is refused before anything starts.
  await expect(api.startJob({ name: 'escape', job: { command: 'true', cwd: 'probe' }, metricsFile: '../../x.jsonl' })).rejects.toMatchObject({ code: 'invalid_input' });
  expect(await h.host.jobs.list({ taskId })).toHaveLength(1);
});

it('compare_runs shows the params that differ and each metric per run with the best run; unknown runs are not_found', async () => {
  h = await startRuntime(() => reply.text('idle'));
  const taskId = await h.runtime.startTask('compare');
  const api = taskRunsApi(h.host.runs, { taskId, operator: 'agent:main' });
  const a = (await api.recordResult({ name: 'lr 0.1', params: { lr: 0.1, seed: 1 }, metrics: [{ step: 1, loss: 0.9 }, { step: 2, loss: 0.5, acc: 0.7 }] })) as { id: string };
  const b = (await api.recordResult({ name: 'lr 0.01', params: { lr: 0.01, seed: 1, warmup: 10 }, metrics: [{ step: 1, loss: 0.4 }, { step: 2, loss: 0.45 }] })) as { id: string };
  const tool = h.host.registry.tool('compare_runs')!.tool;
  const context = { operator: 'agent:main' as const, taskId, agentId: 'main', signal: new AbortController().signal, host: { workspaceDir: h.host.workspaceDir, resources: h.host.resources } };
  const compared = await tool.handler({ runIds: [a.id, b.id] } as never, context);
  expect(compared.isError).toBeUndefined();
  expect(compared.content).toEqual({
    runs: [expect.objectContaining({ id: a.id, name: 'lr 0.1', status: 'succeeded' }), expect.objectContaining({ id: b.id, name: 'lr 0.01', status: 'succeeded' })],
    paramsThatDiffer: { lr: [0.1, 0.01], warmup: [null, 10] },
    metrics: {
      acc: { direction: 'max', runs: [{ last: 0.7, lastStep: 2, best: 0.7, bestStep: 2 }, null], bestRun: a.id },
      loss: { direction: 'min', runs: [{ last: 0.5, lastStep: 2, best: 0.5, bestStep: 2 }, { last: 0.45, lastStep: 2, best: 0.4, bestStep: 1 }], bestRun: b.id },
    },
  });
  const missing = await tool.handler({ runIds: [a.id, 'run_nope'] } as never, context);
  expect(missing.isError).toBe(true);
  expect(JSON.stringify(missing.content)).toContain('not_found');
});
