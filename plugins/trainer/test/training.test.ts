import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Json } from '@cowork/host';
import type { TempHost } from '@cowork/host/testkit';
import { callTool, trainerHost, until } from './support';

type Obj = Record<string, Json>;
const obj = (v: Json) => v as Obj;

const torch = spawnSync('/usr/bin/python3', ['-c', 'import torch'], { stdio: 'ignore' }).status === 0;

describe('a training round as a host job (a smoke of a few dozen steps)', () => {
  let host: TempHost;
  const call = (name: string, input: unknown) => callTool(host, name, input);
  beforeAll(async () => {
    host = await trainerHost();
  });
  afterAll(async () => {
    await host.dispose();
  });

  test('Debian python3-torch is installed (tools/install-system-deps.sh installs it from system-deps.txt)', () => {
    expect(torch).toBe(true);
  });

  // Without torch this fails too; the test above says why.
  test('trains from base, survives a SIGKILL by resuming from its last checkpoint, records each step once and creates one checkpoint', async () => {
    await call('trainer_generate', { family: 'read_value', split: 'train', count: 24, seed: 1, out: 'runs/train' });
    const { datasetId } = obj((await call('trainer_collect', { runs: ['runs/train'] })).content) as { datasetId: string };
    await call('trainer_filter', { datasetId });
    const { roundId } = obj((await call('trainer_plan_round', { name: 'smoke', datasetId, settings: { steps: 24, batch: 8, lr: 0.003 } })).content) as { roundId: string };
    const prepared = obj((await call('trainer_prepare_round', { roundId })).content);
    const spec = prepared.job as { command: string; args: string[]; cwd: string; name: string; env: Record<string, string> };
    expect(spec.command).toBe('/usr/bin/python3');
    // The round's threads (1 by default) hold for OpenBLAS's and OpenMP's pools too.
    expect(spec.env).toEqual({ OMP_NUM_THREADS: '1', OPENBLAS_NUM_THREADS: '1' });
    expect(obj((await host.resources.get(roundId)).content).status).toBe('queued');
    const out = join(host.dir, spec.cwd, 'out');

    const first = await host.jobs.start(spec);
    await until(() => existsSync(join(out, 'state.pt')), Boolean, 'the first checkpoint');
    process.kill(first.pid!, 'SIGKILL');
    await until(() => host.jobs.get(first.id), (j) => j.status !== 'running', 'the killed job to end');
    const partial = obj((await call('trainer_sync_round', { roundId, jobId: first.id })).content);
    expect(partial.status).toBe('running');
    expect(partial.checkpoint).toBeNull();

    // After the crash: prepare again (same job), start it, and it resumes.
    const again = obj((await call('trainer_prepare_round', { roundId })).content).job as typeof spec;
    expect(again).toEqual(spec);
    const second = await host.jobs.start(again);
    const ended = await until(() => host.jobs.get(second.id), (j) => j.status !== 'running', 'the resumed job to end', 120_000);
    expect(ended.status).toBe('succeeded');
    expect(JSON.stringify(await host.jobs.logs(second.id))).toContain('resumed');

    const done = obj((await call('trainer_sync_round', { roundId, jobId: second.id })).content);
    expect(done.status).toBe('succeeded');
    const round = obj((await host.resources.get(roundId)).content);
    const steps = (round.metrics as Obj[]).map((p) => p.step as number);
    expect(steps[steps.length - 1]).toBe(24);
    expect(steps).toEqual([...new Set(steps)].sort((a, b) => a - b));
    const losses = (round.metrics as Obj[]).map((p) => p.loss as number);
    expect(losses[losses.length - 1]).toBeLessThan(losses[0]!);

    const checkpoint = done.checkpoint as { id: string; hash: string };
    const content = obj((await host.resources.get(checkpoint.id)).content);
    const dataset = obj((await host.resources.get(datasetId)).content);
    expect(content).toMatchObject({ hash: checkpoint.hash, parent: { type: 'base' }, round: roundId, steps: 24, tokenizer: { name: 'pieces', vocabSize: expect.any(Number) }, data: { datasetId, revision: 1, hash: obj(dataset.data!).hash } });
    expect(obj(content.model!).params).toBeGreaterThan(800_000);
    expect(obj(content.model!).params).toBeLessThan(1_000_000);
    expect(readFileSync(join(host.dir, content.file as string)).length).toBeGreaterThan(1_000_000);

    // Syncing again changes nothing and makes no second checkpoint.
    expect(obj((await call('trainer_sync_round', { roundId })).content)).toMatchObject({ status: 'succeeded', newPoints: 0, checkpoint });
    expect(await host.resources.list({ kind: 'trainer.checkpoint' })).toHaveLength(1);

    // Round 1 continues from round 0's checkpoint: its plan records the hash, its job starts from the file.
    const next = obj((await call('trainer_plan_round', { name: 'r1', datasetId, parentCheckpointId: checkpoint.id, settings: { steps: 8 } })).content);
    expect(next.parent).toEqual({ type: 'checkpoint', checkpointId: checkpoint.id, hash: checkpoint.hash });
    const nextJob = obj((await call('trainer_prepare_round', { roundId: next.roundId })).content).job as typeof spec;
    const config = JSON.parse(readFileSync(join(host.dir, nextJob.cwd, 'config.json'), 'utf8')) as { parent: string; parentHash: string };
    expect(config.parent).toBe(join(host.dir, content.file as string));
    expect(config.parentHash).toBe(checkpoint.hash);

    // A parent checkpoint whose file no longer loads as itself: the round is refused before anything is written,
    // and train.py, given it anyway, says why on one line and exits 2 before training.
    writeFileSync(join(host.dir, content.file as string), 'not a torch file');
    const broken = obj((await call('trainer_plan_round', { name: 'r2', datasetId, parentCheckpointId: checkpoint.id, settings: { steps: 8 } })).content).roundId as string;
    const refused = await call('trainer_prepare_round', { roundId: broken });
    expect(refused.isError).toBe(true);
    expect(obj(obj(refused.content).error!)).toMatchObject({ code: 'invalid_input', reason: 'checkpoint_unloadable', message: expect.stringContaining(`the parent checkpoint ${checkpoint.id} file`) });
    expect(existsSync(join(host.dir, 'trainer', 'rounds', broken))).toBe(false);
    expect(obj((await host.resources.get(broken)).content).status).toBe('draft');
    const direct = spawnSync('/usr/bin/python3', [spec.args[0]!, '--config', 'config.json'], { cwd: join(host.dir, nextJob.cwd), encoding: 'utf8', timeout: 60_000 });
    expect(direct.status).toBe(2);
    expect(direct.stderr.trim()).toMatch(/^train\.py: the checkpoint .* has SHA-256 [0-9a-f]{64}, not [0-9a-f]{64}$/);
    expect(existsSync(join(host.dir, nextJob.cwd, 'out', 'state.pt'))).toBe(false);
  });
});
