/**
 * Invariant: an agent trains a round as a run of its task. trainer_start_round prepares the round,
 * starts its training job through the host's runs (the round's folder, not the sandboxed work/) and
 * marks the round running; the run's metrics are the job's loss and throughput, Main's digest shows
 * it, a repeated call answers the same run and job, and trainer_sync_round makes the checkpoint.
 * Without a task (a person's or an MCP client's call) the tool says to use trainer_prepare_round.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Json } from '@cowork/host';
import { AgentRuntime, OpenAiCompatibleProvider, type Host } from '@cowork/host/embed';
import { reply, startScriptedModelServer, type ScriptedModelServer, type TempHost } from '@cowork/host/testkit';
import { callTool, trainerHost, until } from './support';

type Obj = Record<string, Json>;
const obj = (v: Json) => v as Obj;
const torch = spawnSync('/usr/bin/python3', ['-c', 'import torch'], { stdio: 'ignore' }).status === 0;

type Body = { messages: { role: string; content?: unknown }[] };
const lastToolResult = (body: Body): Obj | undefined => {
  const last = body.messages.at(-1);
  return last?.role === 'tool' ? (JSON.parse(String(last.content)) as Obj) : undefined;
};

describe('a round trained by an agent is a run of its task', () => {
  let host: TempHost;
  let server: ScriptedModelServer | undefined;
  let runtime: AgentRuntime | undefined;
  beforeAll(async () => {
    host = await trainerHost();
  });
  afterAll(async () => {
    await runtime?.close();
    await server?.close();
    await host.dispose();
  });

  test('without a task, trainer_start_round refuses and names the way a person trains', async () => {
    const result = await callTool(host, 'trainer_start_round', { roundId: 'res_nope' });
    expect(result.isError).toBe(true);
    expect(obj(obj(result.content).error!)).toMatchObject({ code: 'invalid_input', reason: 'no_task' });
    expect(await host.jobs.list({})).toHaveLength(0);
  });

  (torch ? test : test.skip)('start, watch and sync a round from a task: the run has the loss, the digest shows it, the checkpoint is made', async () => {
    const call = async (name: string, input: unknown) => obj((await callTool(host, name, input)).content);
    await call('trainer_generate', { family: 'read_value', split: 'train', count: 16, seed: 3, out: 'runs/train' });
    const { datasetId } = (await call('trainer_collect', { runs: ['runs/train'] })) as { datasetId: string };
    await call('trainer_filter', { datasetId });
    const { roundId } = (await call('trainer_plan_round', { name: 'agent round', datasetId, settings: { steps: 12, batch: 8, lr: 0.003 } })) as { roundId: string };

    let taskId = '';
    const seen: Obj[] = [];
    const systems: string[] = [];
    server = await startScriptedModelServer(async (raw, index) => {
      const body = raw as unknown as Body;
      systems.push(String(body.messages[0]?.content ?? ''));
      const result = lastToolResult(body);
      if (result) seen.push(result);
      if (index === 0) return reply.toolCalls([{ id: 's0', name: 'trainer_start_round', arguments: { roundId } }]);
      if (index === 1) return reply.toolCalls([{ id: 's1', name: 'trainer_start_round', arguments: { roundId } }]);
      if (index === 2) {
        // The training process dies after its first saved state: starting again is a new run that resumes.
        await until(() => existsSync(join(host.dir, 'trainer', 'rounds', roundId, 'out', 'state.pt')), Boolean, 'the first saved state', 120_000);
        const [job] = await host.jobs.list({ taskId });
        process.kill(job!.pid!, 'SIGKILL');
        await until(() => host.jobs.get(job!.id), (j) => j.status !== 'running', 'the killed job to end');
        return reply.toolCalls([{ id: 's2', name: 'trainer_start_round', arguments: { roundId } }]);
      }
      if (index === 3) {
        await until(() => host.jobs.list({ taskId }), (jobs) => jobs.length === 2 && jobs.every((j) => j.status !== 'running'), 'the resumed job to end', 120_000);
        return reply.toolCalls([{ id: 's3', name: 'trainer_sync_round', arguments: { roundId } }]);
      }
      if (index === 4) return reply.toolCalls([{ id: 's4', name: 'list_runs', arguments: {} }]);
      return reply.text('trained');
    });
    const provider = new OpenAiCompatibleProvider({ baseUrl: server.baseUrl, model: 'scripted', maxRetries: 1, retryBaseDelayMs: 5, maxRetryDelayMs: 20, maxContextTokens: 32_000 });
    runtime = new AgentRuntime({ host: host as unknown as Host, provider, maxOutputTokens: 500 });
    taskId = await runtime.startTask('train the agent round');
    await runtime.runTask(taskId);

    const [started, again, resumed] = seen as [Obj, Obj, Obj];
    expect(started).toMatchObject({ roundId, status: 'running' });
    expect(again).toEqual(started);
    expect(resumed).toMatchObject({ roundId, status: 'running' });
    expect(resumed.runId).not.toBe(started.runId);
    const jobs = (await host.jobs.list({ taskId })).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    expect(jobs.map((j) => j.id)).toEqual([started.jobId, resumed.jobId]);
    expect(jobs[1]!.status).toBe('succeeded');
    expect(JSON.stringify(await host.jobs.logs(jobs[1]!.id))).toContain('resumed');

    const runs = await host.runs.list(taskId);
    expect(runs.map((r) => r.id).sort()).toEqual([started.runId, resumed.runId].sort());
    const first = runs.find((r) => r.id === started.runId)!;
    const second = runs.find((r) => r.id === resumed.runId)!;
    expect(first.status).not.toBe('succeeded');
    expect(second).toMatchObject({ name: 'train agent round', status: 'succeeded', goal: { metric: 'loss', direction: 'min' }, params: { round: roundId, steps: 12, batch: 8 } });
    expect(second.metrics.loss!.lastStep).toBe(12);
    expect(second.metrics.tokensPerSecond!.count).toBeGreaterThan(0);
    // The resumed run reads only what its job wrote: steps after the saved state, ending with the round's.
    const round = obj((await host.resources.get(roundId)).content);
    expect(round.status).toBe('succeeded');
    expect(round.checkpoint).not.toBeNull();
    const roundLoss = new Map((round.metrics as Obj[]).map((p) => [p.step, p.loss]));
    const secondLoss = await host.runs.series(taskId, second.id, 'loss');
    const firstSteps = (await host.runs.series(taskId, first.id, 'loss')).map((p) => p.step!);
    expect(secondLoss[0]!.step!).toBeGreaterThan(Math.min(...firstSteps));
    for (const p of secondLoss) expect(roundLoss.get(p.step)).toBe(p.value);
    // Main's last request carries the run in its digest.
    expect(systems.at(-1)).toContain('"train agent round"');
    expect(systems.at(-1)).toContain('loss');
  }, 180_000);
});
