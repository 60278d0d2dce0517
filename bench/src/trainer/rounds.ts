/**
 * Round 0, round 1 and a control round of the trainer, end to end through a real host: the
 * teacher's trajectories are the task families' reference scripts replayed by the benchmark runner
 * (so the data hold the host's real tool results), datasets are collected and filtered by the
 * plugin's tools, each round trains as a host job (python/train.py), and each checkpoint is served
 * as a host job (python/serve.py) and scored by the runner on the held-out split, then recorded with
 * its report by trainer_evaluate_round.
 *
 * - round 0: from base, on read_value and commit_line;
 * - round 1: from round 0's checkpoint, on first-use data for create_note (a tool round 0 never
 *   saw, group `new`) plus fresh instances of the old families (group `old`);
 * - control: from round 0's checkpoint, the same steps, on the old families' data only.
 *
 * Every step reads where the workspace stands first, so running it again after a crash (of the
 * host, or of a job) goes on from there: finished runs and rounds are kept, a round whose job died
 * is prepared again and its job resumes from its last checkpoint.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Json } from '@cowork/host';
import { Host, OpenAiCompatibleProvider, runSuite } from '@cowork/host/embed';
import { FAMILIES, familyInstances, familySuite, plugin as trainerPlugin, writeFamilyScripts, type Family, type FamilyTask } from '@cowork/plugin-trainer';
import { freePort } from '@cowork/host/testkit';

export interface RoundsOptions {
  readonly workspaceDir: string;
  /** Steps of round 0, and of round 1 and the control. */
  readonly steps: { readonly r0: number; readonly r1: number };
  readonly batch: number;
  readonly lr: number;
  /** Dev instances per family: round 0's, round 1's first-use (create_note), round 1's and the control's old-family data. */
  readonly instances: { readonly r0: number; readonly r1New: number; readonly r1Old: number };
  /** Held-out instances scored per family, and the bytes of each model reply (a task allows Main 4 turns). */
  readonly heldout: number;
  readonly evalMaxTokens: number;
  /** How often a round-1 `new` trajectory is drawn against an `old` one. */
  readonly newMultiplier: number;
  readonly log: (line: string) => void;
}

export interface RoundOutcome {
  readonly name: string;
  readonly roundId: string;
  readonly checkpoint: { readonly id: string; readonly hash: string };
  readonly parentHash: string | null;
  readonly evaluation: { readonly families: readonly { family: string; passed: number; trials: number; usedTool: number; rate: number; interval: { low: number; high: number } }[] };
  readonly firstLoss: number;
  readonly lastLoss: number;
  readonly report: string;
}

type Obj = Record<string, Json>;
const OPERATOR = 'agent:trainer-rounds';
const R0_FAMILIES: readonly Family[] = ['read_value', 'commit_line'];

export async function runRounds(o: RoundsOptions): Promise<RoundOutcome[]> {
  const host = await Host.open({ workspaceDir: o.workspaceDir, plugins: [trainerPlugin] });
  try {
    return await new RoundsLoop(host, o).run();
  } finally {
    await host.close();
  }
}

/** A round whose training succeeded: its name, resource and checkpoint. */
interface TrainedRound {
  readonly name: string;
  readonly roundId: string;
  readonly checkpoint: { readonly id: string; readonly hash: string };
}

class RoundsLoop {
  private readonly instances = familyInstances();

  constructor(
    private readonly host: Host,
    private readonly o: RoundsOptions,
  ) {}

  async run(): Promise<RoundOutcome[]> {
    const { o } = this;
    const dev = (families: readonly Family[], from: number, count: number) =>
      families.flatMap((f) => this.instances.filter((t) => t.family === f && t.split === 'train').slice(from, from + count));
    await this.teacher('teacher-r0', dev(R0_FAMILIES, 0, o.instances.r0));
    await this.teacher('teacher-r1-new', dev(['create_note'], 0, o.instances.r1New));
    await this.teacher('teacher-r1-old', dev(R0_FAMILIES, o.instances.r0, o.instances.r1Old));

    const r0Data = await this.dataset('round 0 data', { runs: ['bench-runs/teacher-r0'] });
    const r0 = await this.round('round 0', r0Data, undefined, o.steps.r0);
    const r1Data = await this.dataset('round 1 data', { runs: ['bench-runs/teacher-r1-new', 'bench-runs/teacher-r1-old'], groups: { 'bench-runs/teacher-r1-new': 'new' }, group: 'old' }, r0.checkpoint.id, o.newMultiplier);
    const controlData = await this.dataset('control data', { runs: ['bench-runs/teacher-r1-old'], group: 'old' }, r0.checkpoint.id);
    // Round 1 and the control are independent: side by side, a core each (a round's one thread is enforced).
    const [r1, control] = await Promise.all([
      this.round('round 1', r1Data, r0.checkpoint.id, o.steps.r1),
      this.round('control', controlData, r0.checkpoint.id, o.steps.r1),
    ]);
    // The three are scored at once; their evaluations are recorded in order, as each compares with those before.
    const runs = await Promise.all([r0, control, r1].map((round) => this.score(round)));
    return [
      await this.record(r0, runs[0]!, {}),
      await this.record(control, runs[1]!, { parent: r0.roundId }),
      await this.record(r1, runs[2]!, { parent: r0.roundId, control: control.roundId }),
    ];
  }

  /** The teacher: reference scripts replayed through the host by the runner, resumed when a run is there. */
  private async teacher(name: string, tasks: readonly FamilyTask[]): Promise<void> {
    const scripts = join(this.host.workspaceDir, 'trainer', 'teacher-scripts', name);
    writeFamilyScripts(scripts, tasks);
    const outDir = join(this.host.workspaceDir, 'bench-runs', name);
    this.o.log(`${name}: replaying ${tasks.length} reference solutions through the host`);
    const results = await runSuite({
      suite: familySuite, tasks: tasks.map((t) => t.id), trials: 1, model: { kind: 'script', dir: scripts }, modelName: 'teacher',
      host: { plugins: [trainerPlugin] }, outDir, resume: existsSync(join(outDir, 'results.json')),
    });
    const failed = results.trials.filter((t) => !t.passed);
    if (failed.length > 0) throw new Error(`${name}: ${failed.length} reference solutions did not pass (${failed.slice(0, 3).map((t) => `${t.task}: ${t.reason ?? t.items.filter((i) => !i.pass).map((i) => i.detail).join('; ')}`).join(' | ')})`);
  }

  private async call(name: string, input: unknown): Promise<Obj> {
    const registered = this.host.registry.tool(name);
    if (!registered) throw new Error(`no tool ${name}`);
    const result = await registered.tool.handler(input as never, { operator: OPERATOR, signal: new AbortController().signal, host: { workspaceDir: this.host.workspaceDir, resources: this.host.resources } });
    if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
    return result.content as Obj;
  }

  private async byName(kind: string, name: string): Promise<{ id: string; revision: number; content: Obj } | undefined> {
    const found = (await this.host.resources.list({ kind })).find((r) => (r.content as Obj).name === name);
    return found && { id: found.id, revision: found.revision, content: found.content as Obj };
  }

  /** A filtered dataset by name: collected and filtered once (held-out requests of every family are the similarity filter's reference). */
  private async dataset(name: string, collect: Obj, parentCheckpointId?: string, newMultiplier?: number): Promise<string> {
    const existing = await this.byName('trainer.dataset', name);
    if (existing?.content.stage === 'filtered') return existing.id;
    const id = existing?.id ?? ((await this.call('trainer_collect', { name, ...collect })).datasetId as string);
    if (newMultiplier !== undefined) {
      const current = await this.host.resources.get(id);
      await this.host.resources.commit(id, { baseRevision: current.revision, op: { type: 'set_multiplier', group: 'new', multiplier: newMultiplier }, operator: OPERATOR });
    }
    const heldoutTasks = this.instances.filter((t) => t.split === 'heldout').map((t) => ({ id: t.id, request: t.taskRequest }));
    const filtered = await this.call('trainer_filter', { datasetId: id, heldoutTasks, ...(parentCheckpointId ? { parentCheckpointId } : {}) });
    this.o.log(`${name}: ${filtered.kept as number} trajectories kept (${JSON.stringify((filtered.filters as Obj[]).map((f) => [f.filter, f.kept]))})`);
    return id;
  }

  /** A round trained to its checkpoint: planned once, its job started, or waited for, or resumed. */
  private async round(name: string, datasetId: string, parentCheckpointId: string | undefined, steps: number): Promise<TrainedRound> {
    const { o } = this;
    let round = await this.byName('trainer.round', name);
    if (!round) {
      // One thread: on this 2-core machine two were no faster for this model (40 steps: 37.9 s on one,
      // 40.0 s on two), and the second core trains the control beside round 1.
      const settings = { steps, batch: o.batch, lr: o.lr, seed: 1, threads: 1 };
      const planned = await this.call('trainer_plan_round', { name, datasetId, settings, ...(parentCheckpointId ? { parentCheckpointId } : {}) });
      round = (await this.byName('trainer.round', name))!;
      o.log(`${name}: planned (${planned.roundId as string}), ${steps} steps from ${parentCheckpointId ?? 'base'}`);
    }
    const roundId = round.id;
    for (;;) {
      const content = (await this.host.resources.get(roundId)).content as Obj;
      if (content.status === 'succeeded') return { name, roundId, checkpoint: content.checkpoint as { id: string; hash: string } };
      if (content.status === 'failed' || content.status === 'cancelled') throw new Error(`${name} is ${content.status as string}`);
      const jobId = content.job as string | null;
      const job = jobId ? await this.host.jobs.get(jobId) : undefined;
      if (job && job.status !== 'running') {
        // Its job ended while nothing watched it (the pipeline was down): record what it did first.
        const synced = await this.call('trainer_sync_round', { roundId, jobId: job.id });
        if (synced.status === 'succeeded') continue;
      }
      let running = job?.status === 'running' ? job : undefined;
      if (!running) {
        // A new round, or one whose job ended before its round did (a crash): prepare (the same job) and start it; it resumes from state.pt.
        const spec = (await this.call('trainer_prepare_round', { roundId })).job as { command: string; args: string[]; cwd: string; name: string };
        running = await this.host.jobs.start(spec);
        await this.call('trainer_sync_round', { roundId, jobId: running.id });
        o.log(`${name}: training as job ${running.id}${jobId ? ` (after job ${jobId} ended)` : ''}`);
      }
      const ended = await this.waitForJob(running.id, async () => {
        await this.call('trainer_sync_round', { roundId, jobId: running!.id });
      });
      const synced = await this.call('trainer_sync_round', { roundId, jobId: running.id });
      if (ended.status !== 'succeeded' && synced.status !== 'succeeded') {
        throw new Error(`${name}: the training job ${running.id} ${ended.status}: ${JSON.stringify((await this.host.jobs.logs(running.id, { stream: 'stderr' })).lines.slice(-5))}`);
      }
    }
  }

  private async waitForJob(jobId: string, every: () => Promise<void>): Promise<{ status: string }> {
    for (let tick = 0; ; tick++) {
      const job = await this.host.jobs.get(jobId);
      if (job.status !== 'running') return job;
      if (tick % 20 === 19) await every();
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  /** Serves a round's checkpoint and scores it on the held-out split with the runner: the run's folder (none when it is evaluated already). */
  private async score(round: TrainedRound): Promise<string | null> {
    const { o } = this;
    if (((await this.host.resources.get(round.roundId)).content as Obj).evaluation) return null;
    const run = `bench-runs/eval-${round.name.replace(/\W+/g, '-')}`;
    const outDir = join(this.host.workspaceDir, run);
    const port = await freePort();
    const served = await this.call('trainer_serve_checkpoint', { checkpointId: round.checkpoint.id, port, maxTokens: o.evalMaxTokens });
    const job = await this.host.jobs.start(served.job as never);
    try {
      const baseUrl = served.baseUrl as string;
      await waitForServer(baseUrl, async () => (await this.host.jobs.get(job.id)).status === 'running');
      const tasks = FAMILIES.flatMap((f) => this.instances.filter((t) => t.family === f && t.split === 'heldout').slice(0, o.heldout)).map((t) => t.id);
      o.log(`${round.name}: scoring its checkpoint on ${tasks.length} held-out tasks (served at ${baseUrl})`);
      await runSuite({
        suite: familySuite, tasks, split: 'heldout', trials: 1, modelName: served.model as string,
        model: { kind: 'model', provider: new OpenAiCompatibleProvider({ baseUrl, model: served.model as string, maxRetries: 0 }) },
        host: { plugins: [trainerPlugin] }, outDir, resume: existsSync(join(outDir, 'results.json')), defaults: { seconds: 120 },
      });
    } finally {
      await this.host.jobs.cancel(job.id).catch(() => undefined);
    }
    return run;
  }

  /** Records a round's evaluation from its scored run (compared with rounds recorded before), and what it says. */
  private async record(round: TrainedRound, run: string | null, compare: Record<string, string>): Promise<RoundOutcome> {
    const { o } = this;
    if (run) await this.call('trainer_evaluate_round', { roundId: round.roundId, run, compare });
    const content = (await this.host.resources.get(round.roundId)).content as Obj;
    const evaluation = content.evaluation as unknown as RoundOutcome['evaluation'];
    const metrics = content.metrics as { loss: number }[];
    const parent = content.parent as { type: string; hash?: string };
    o.log(`${round.name}: held-out ${evaluation.families.map((f) => `${f.family} ${f.passed}/${f.trials} (its tool called in ${f.usedTool})`).join(', ')}`);
    return {
      name: round.name, roundId: round.roundId, checkpoint: round.checkpoint, parentHash: parent.type === 'checkpoint' ? parent.hash! : null, evaluation,
      firstLoss: metrics[0]?.loss ?? NaN, lastLoss: metrics[metrics.length - 1]?.loss ?? NaN, report: content.report as string,
    };
  }
}


/** Waits until a model server answers `GET /models`; fails when `alive` says its job ended first, or after 120 s. */
export async function waitForServer(baseUrl: string, alive: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const ok = await fetch(`${baseUrl}/models`).then((r) => r.ok, () => false);
    if (ok) return;
    if (!(await alive())) throw new Error(`the model server at ${baseUrl} exited before it listened`);
    if (Date.now() > deadline) throw new Error(`the model server at ${baseUrl} did not listen within 120 s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
