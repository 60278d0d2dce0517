import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic, writeJsonAtomic, type ResourceApi } from '@cowork/host';
import { renderSample } from '../chat-template';
import { readSamples } from '../data-files';
import { trainerError } from '../errors';
import type { CheckpointContent } from '../kinds/checkpoint-kind';
import { multiplierOf, type DatasetContent } from '../kinds/dataset-kind';
import type { RoundContent } from '../kinds/round-kind';
import { PYTHON, threadEnv, trainScript } from './script';
import { readOfKind } from '../read-of-kind';

/** Why a checkpoint file would not load as the checkpoint it claims to be, or undefined. */
function fileProblem(path: string, hash: string): string | undefined {
  if (!existsSync(path)) return `has no file (${path} is missing)`;
  const actual = createHash('sha256').update(readFileSync(path)).digest('hex');
  return actual === hash ? undefined : `file ${path} has SHA-256 ${actual.slice(0, 12)}…, not the checkpoint's ${hash.slice(0, 12)}…`;
}

/** What to give `start_job`: the host's job input. */
export interface JobSpec {
  readonly command: string;
  readonly args: string[];
  readonly cwd: string;
  readonly name: string;
  readonly env?: Readonly<Record<string, string>>;
}

/** A round's folder in the workspace: its input, config and the job's output. */
export function roundDir(roundId: string): string {
  return join('trainer', 'rounds', roundId);
}

export async function readRound(resources: ResourceApi, roundId: string): Promise<{ revision: number; content: RoundContent }> {
  return readOfKind<RoundContent>(resources, roundId, 'trainer.round', 'the round');
}

/**
 * Writes a round's training input (each kept sample as its template segments, with its group's
 * multiplier) and the job's config, and returns the job to start. Preparing again writes the same
 * files, so a resumed round starts the same job, which resumes from its own state.pt.
 */
export async function prepareRound(resources: ResourceApi, workspaceDir: string, roundId: string): Promise<JobSpec> {
  const { content: round } = await readRound(resources, roundId);
  if (round.dataset === null) throw trainerError('empty_dataset', `the round ${roundId} has no dataset`, { resourceId: roundId });
  const dataset = (await resources.contentAt(round.dataset.id, round.dataset.revision)) as DatasetContent;
  if (dataset.data === null) throw trainerError('not_collected', `the dataset ${round.dataset.id} at revision ${round.dataset.revision} is not filtered`, { resourceId: round.dataset.id });
  const samples = readSamples(workspaceDir, dataset.data);
  let parent = 'base';
  let parentHash: string | null = null;
  if (round.parent.type === 'checkpoint') {
    const checkpoint = (await resources.get(round.parent.checkpointId)).content as CheckpointContent;
    parent = join(workspaceDir, checkpoint.file);
    parentHash = checkpoint.hash;
    // Checked here so a parent that would not load refuses the round before anything is written (train.py checks again).
    const problem = fileProblem(parent, parentHash);
    if (problem) throw trainerError('checkpoint_unloadable', `the parent checkpoint ${round.parent.checkpointId} ${problem}`, { resourceId: round.parent.checkpointId });
  }
  const dir = roundDir(roundId);
  mkdirSync(join(workspaceDir, dir, 'out'), { recursive: true });
  const lines = samples.map((s) => JSON.stringify({ segments: renderSample(s).map((seg) => [seg.text, seg.train]), multiplier: multiplierOf(dataset, s.group) }));
  writeFileAtomic(join(workspaceDir, dir, 'train.jsonl'), lines.join('\n') + '\n');
  const steps = round.settings.steps;
  writeJsonAtomic(join(workspaceDir, dir, 'config.json'), {
    data: 'train.jsonl',
    out: 'out',
    parent,
    parentHash,
    settings: {
      ...round.settings,
      context: 256,
      // A smoke round of a few dozen steps still checkpoints a few times; a long one every 50 steps.
      checkpoint_every: Math.max(1, Math.min(50, Math.floor(steps / 4))),
      log_every: Math.max(1, Math.min(10, Math.floor(steps / 10))),
    },
  });
  return { command: PYTHON, args: [trainScript(), '--config', 'config.json'], cwd: dir, name: `train ${round.name}`, env: threadEnv(round.settings.threads) };
}
