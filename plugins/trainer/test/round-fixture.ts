// Rounds in each state the views and exports show, made through a real host without training: a
// dataset through the plugin's tools, a checkpoint resource of a made-up hash (nothing here loads
// its weights), a round as a finished job leaves it, and an evaluation through trainer_evaluate_round
// of a held-out run written by hand.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Json } from '@cowork/host';
import type { TempHost } from '@cowork/host/testkit';
import { callTool, PERSON } from './support';

type Obj = Record<string, Json>;
const obj = (v: Json) => v as Obj;

export interface Fixture {
  readonly datasetId: string;
  readonly datasetRevision: number;
  readonly checkpoint: { readonly id: string; readonly hash: string };
}

/** A filtered dataset of generated read_value trajectories and a checkpoint said to be trained on it. */
export async function fixture(host: TempHost): Promise<Fixture> {
  const call = async (name: string, input: unknown) => {
    const result = await callTool(host, name, input);
    if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
    return obj(result.content);
  };
  await call('trainer_generate', { family: 'read_value', split: 'train', count: 6, seed: 1, out: 'runs/train' });
  const datasetId = (await call('trainer_collect', { runs: ['runs/train'] })).datasetId as string;
  await call('trainer_filter', { datasetId });
  const dataset = await host.resources.get(datasetId);
  const hash = 'c'.repeat(64);
  const created = await host.resources.create({
    kind: 'trainer.checkpoint', operator: PERSON,
    content: { hash, file: `trainer/checkpoints/${hash}.pt`, parent: { type: 'base' }, round: null, data: { datasetId, revision: dataset.revision, hash: obj(obj(dataset.content).data!).hash as string }, steps: 40, tokenizer: { name: 'bytes', vocabSize: 256 }, model: { layers: 4, d: 128 } },
  });
  return { datasetId, datasetRevision: dataset.revision, checkpoint: { id: created.id, hash } };
}

/** Seven metric points, loss falling. */
export const METRICS = [5, 10, 15, 20, 25, 30, 40].map((step) => ({ step, loss: Math.round((4 / step) * 10000) / 10000, tokensPerSecond: 250 }));

/** A round as a finished training job leaves it: succeeded, with its metrics and checkpoint, not evaluated. */
export async function succeededRound(host: TempHost, f: Fixture, name: string): Promise<string> {
  const round = await host.resources.create({
    kind: 'trainer.round', operator: PERSON,
    content: {
      name, parent: { type: 'base' }, dataset: { id: f.datasetId, revision: f.datasetRevision }, settings: { steps: 40, lr: 0.003, batch: 8, seed: 1, threads: 1 },
      status: 'succeeded', job: 'job_fixture', metrics: METRICS, checkpoint: f.checkpoint, report: null, evaluation: null,
    },
  });
  return round.id;
}

/** A held-out run folder: results.json (per task, whether each trial passed) and a record per trial calling `tool`. */
export function writeHeldoutRun(dir: string, passes: Record<string, boolean[]>, tool = 'read_resource'): void {
  mkdirSync(join(dir, 'records'), { recursive: true });
  const trials = Object.entries(passes).flatMap(([task, outcomes]) =>
    outcomes.map((passed, trial) => {
      const entries = [{ agentId: 'main', turn: 1, message: { role: 'assistant', content: null, toolCalls: [{ id: 'c0', name: tool, arguments: '{}' }] } }];
      writeFileSync(join(dir, 'records', `${task}.${trial}.json`), JSON.stringify({ format: 'cowork-bench-run/1', task, trial, entries }));
      return { task, split: 'heldout', trial, status: 'scored', passed, score: passed ? 3 : 1, maxScore: 3, record: `records/${task}.${trial}.json` };
    }),
  );
  writeFileSync(join(dir, 'results.json'), JSON.stringify({ format: 'cowork-bench-results/1', suite: 'trainer-families', model: { provider: 'openai-compatible', name: 'trainer-fixture', replay: null }, trials }));
}

/** A succeeded round evaluated through trainer_evaluate_round (compared with `compare`, when given). */
export async function evaluatedRound(host: TempHost, f: Fixture, name: string, passes: Record<string, boolean[]>, compare?: Record<string, string>): Promise<string> {
  const roundId = await succeededRound(host, f, name);
  const run = `runs/eval-${roundId}`;
  writeHeldoutRun(join(host.dir, run), passes);
  const result = await callTool(host, 'trainer_evaluate_round', { roundId, run, ...(compare ? { compare } : {}) });
  if (result.isError) throw new Error(`trainer_evaluate_round: ${JSON.stringify(result.content)}`);
  return roundId;
}
