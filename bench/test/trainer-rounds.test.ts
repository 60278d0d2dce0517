/**
 * The trainer's rounds end to end, as CI can afford them: a smoke of a few dozen steps and a few
 * instances per family (learning is the full run's business: `npm run trainer:rounds`). The
 * pipeline runs as its command does, in a child process; it is SIGKILLed while round 0 trains, and
 * so is the training job; run again on the same workspace, it resumes the round from the job's last
 * checkpoint and finishes all three rounds. Then: the lineage (round 1 and the control record round
 * 0's checkpoint hash), round 1's first-use data (create_note, in no ancestor round), each step's
 * metrics recorded once, one checkpoint per round, held-out scores per family, and the reports.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Host } from '@cowork/host/embed';
import { FAMILIES, plugin } from '@cowork/plugin-trainer';
import { freePort } from '@cowork/host/testkit';
import { waitForServer } from '../src/trainer/rounds';

const CLI = join(__dirname, '..', 'src', 'trainer', 'rounds-cli.ts');
const TSX = require.resolve('tsx/cli');
const STEPS0 = 80;
const COWORK = require.resolve('@cowork/host/package.json').replace(/package\.json$/, 'bin/cowork.js');


type Obj = Record<string, unknown>;

function cli(workspace: string): { done: Promise<{ code: number | null; output: string }>; kill: () => void } {
  const child = spawn(process.execPath, [TSX, CLI, '--smoke', '--steps0', String(STEPS0), '--workspace', workspace], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  return { done: new Promise((resolve) => child.on('exit', (code) => resolve({ code, output }))), kill: () => child.kill('SIGKILL') };
}

async function until(check: () => boolean, what: string, ms = 180_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const stateFiles = (workspace: string) => {
  const rounds = join(workspace, 'trainer', 'rounds');
  return existsSync(rounds) ? readdirSync(rounds).filter((id) => existsSync(join(rounds, id, 'out', 'state.pt'))) : [];
};

describe('trainer rounds, end to end (smoke)', () => {
  const workspace = mkdtempSync(join(tmpdir(), 'trainer-rounds-'));
  afterAll(() => rmSync(workspace, { recursive: true, force: true }));

  it('survives SIGKILL of the pipeline and of the training job mid-round, then finishes round 0, round 1 and the control with lineage, scores and reports', async () => {
    // First run: killed, with its training job, once round 0 has a checkpoint on disk.
    const first = cli(workspace);
    await until(() => stateFiles(workspace).length > 0, "round 0's first training checkpoint");
    first.kill();
    expect((await first.done).code).toBeNull();
    let host = await Host.open({ workspaceDir: workspace, plugins: [plugin] });
    const [round0] = (await host.resources.list({ kind: 'trainer.round' })).filter((r) => (r.content as Obj).name === 'round 0');
    const killedJob = (round0!.content as Obj).job as string;
    const job = await host.jobs.get(killedJob);
    if (job.status === 'running') process.kill(job.pid!, 'SIGKILL');
    await host.close();

    // Second run: goes on from there.
    const second = await cli(workspace).done;
    expect({ code: second.code, tail: second.code === 0 ? '' : second.output.slice(-3000) }).toEqual({ code: 0, tail: '' });
    expect(second.output).toContain('round 0: training as job');
    expect(second.output).toContain(`(after job ${killedJob} ended)`);

    host = await Host.open({ workspaceDir: workspace, plugins: [plugin] });
    try {
      const rounds = new Map((await host.resources.list({ kind: 'trainer.round' })).map((r) => [(r.content as Obj).name as string, { id: r.id, ...(r.content as Obj) } as Obj & { id: string }]));
      const r0 = rounds.get('round 0')!;
      const r1 = rounds.get('round 1')!;
      const control = rounds.get('control')!;
      for (const r of [r0, r1, control]) expect(r.status).toBe('succeeded');

      // The resumed job started from the killed one's state.pt, and no step was recorded twice.
      const logs = await host.jobs.logs(r0.job as string);
      expect(logs.lines.map((l) => l.text).join('\n')).toContain('"event": "resumed"');
      const steps = (r0.metrics as { step: number }[]).map((p) => p.step);
      expect(steps).toEqual([...new Set(steps)].sort((a, b) => a - b));
      expect(steps[steps.length - 1]).toBe(STEPS0);
      expect(await host.resources.list({ kind: 'trainer.checkpoint' })).toHaveLength(3);

      // Lineage: round 1 and the control continue from round 0's checkpoint, by hash.
      const c0 = r0.checkpoint as { id: string; hash: string };
      expect(r0.parent).toEqual({ type: 'base' });
      expect(r1.parent).toEqual({ type: 'checkpoint', checkpointId: c0.id, hash: c0.hash });
      expect(control.parent).toEqual({ type: 'checkpoint', checkpointId: c0.id, hash: c0.hash });
      expect((r1.settings as Obj).steps).toBe((control.settings as Obj).steps);

      // Round 1's first-use data: create_note only, none of it in round 0's data; the control has none.
      const trajectories = async (round: Obj) => ((await host.resources.contentAt((round.dataset as Obj).id as string, (round.dataset as Obj).revision as number)) as { trajectories: { hash: string; task: string; group: string }[]; history: Obj });
      const d0 = await trajectories(r0);
      const d1 = await trajectories(r1);
      const dc = await trajectories(control);
      const fresh = d1.trajectories.filter((t) => t.group === 'new');
      expect(fresh.length).toBeGreaterThan(0);
      expect(fresh.every((t) => t.task.startsWith('create-note-'))).toBe(true);
      expect(d0.trajectories.some((t) => t.task.startsWith('create-note-'))).toBe(false);
      expect(dc.trajectories.some((t) => t.task.startsWith('create-note-'))).toBe(false);
      const ancestors = new Set(d0.trajectories.map((t) => t.hash));
      expect(d1.trajectories.filter((t) => ancestors.has(t.hash))).toEqual([]);
      expect(d1.history).toEqual({ ancestorCheckpoints: [c0.id], ancestorTrajectories: d0.trajectories.length });

      // Each round scored on every family's held-out tasks, compared, and reported.
      for (const r of [r0, r1, control]) {
        const evaluation = r.evaluation as { families: { family: string; trials: number }[]; comparisons: { label: string }[] };
        expect(evaluation.families.map((f) => [f.family, f.trials])).toEqual(FAMILIES.map((f) => [f, 1]));
        const report = readFileSync(join(workspace, r.report as string), 'utf8');
        expect(report).toContain('<svg');
        expect(report).toContain((r.checkpoint as { hash: string }).hash);
      }
      expect((r1.evaluation as { comparisons: { label: string; roundId: string }[] }).comparisons.map((c) => [c.label, c.roundId])).toEqual([['parent', r0.id], ['control', control.id]]);

      // The same scoring from the command line: `cowork bench run` with the model pointed at the served checkpoint.
      const port = await freePort();
      const served = (await host.registry.tool('trainer_serve_checkpoint')!.tool.handler({ checkpointId: (r1.checkpoint as { id: string }).id, port, maxTokens: 24 } as never, { operator: 'human:test', signal: new AbortController().signal, host: { workspaceDir: workspace, resources: host.resources } })).content as { job: never; baseUrl: string; model: string };
      const server = await host.jobs.start(served.job);
      try {
        await waitForServer(served.baseUrl, async () => (await host.jobs.get(server.id)).status === 'running');
        const out = join(workspace, 'cli-run');
        const env = { ...process.env, COWORK_MODEL_BASE_URL: served.baseUrl, COWORK_MODEL: served.model, COWORK_MODEL_MAX_RETRIES: '0' };
        const bench = spawnSync(process.execPath, [COWORK, 'bench', 'run', 'trainer-families', '--split', 'heldout', '--tasks', 'create-note-heldout-2-0', '--out', out, '--json'], { env, encoding: 'utf8', timeout: 300_000 });
        expect({ status: bench.status, stderr: bench.status === 0 ? '' : bench.stderr.slice(-2000) }).toEqual({ status: 0, stderr: '' });
        const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as { model: { name: string }; trials: { task: string; status: string; turns: number }[] };
        expect(results.model.name).toBe(served.model);
        expect(results.trials.map((t) => [t.task, t.status])).toEqual([['create-note-heldout-2-0', 'scored']]);
        expect(results.trials[0]!.turns).toBeGreaterThan(0);
      } finally {
        await host.jobs.cancel(server.id);
      }
    } finally {
      await host.close();
    }
  }, 600_000);
});
