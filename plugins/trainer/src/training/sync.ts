import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import type { Operator, ResourceApi } from '@cowork/host';
import type { CheckpointContent } from '../kinds/checkpoint-kind';
import type { DatasetContent } from '../kinds/dataset-kind';
import type { MetricPoint } from '../kinds/round-kind';
import { readRound, roundDir } from './prepare';

interface TrainResult {
  hash: string;
  file: string;
  steps: number;
  params: number;
  model: Record<string, number>;
  tokenizer: { name: string; vocabSize: number };
}

export interface SyncOutcome {
  readonly status: string;
  readonly newPoints: number;
  readonly lastStep: number | null;
  readonly checkpoint: { id: string; hash: string } | null;
}

/**
 * Brings a round up to date with its job's output: marks it running (with its job), records the
 * metric points past the last recorded step, and when the job wrote result.json, files the weights
 * under their hash, creates the checkpoint (or finds the one a crashed sync already created) and
 * marks the round succeeded. Safe to repeat: each step is recorded once and one checkpoint made.
 */
export async function syncRound(resources: ResourceApi, workspaceDir: string, roundId: string, operator: Operator, jobId?: string): Promise<SyncOutcome> {
  let { revision, content: round } = await readRound(resources, roundId);
  const commit = async (op: object) => {
    revision = (await resources.commit(roundId, { baseRevision: revision, op, operator })).revision;
    round = (await readRound(resources, roundId)).content;
  };
  if (round.status === 'succeeded') return { status: round.status, newPoints: 0, lastStep: round.metrics.at(-1)?.step ?? null, checkpoint: round.checkpoint };
  if (jobId !== undefined && round.job !== jobId) await commit({ type: 'set_job', job: jobId });
  if (round.status === 'draft') await commit({ type: 'set_status', status: 'queued' });
  if (round.status === 'queued' || round.status === 'failed') {
    if (round.status === 'failed') await commit({ type: 'set_status', status: 'queued' });
    await commit({ type: 'set_status', status: 'running' });
  }
  const out = join(workspaceDir, roundDir(roundId), 'out');
  const before = round.metrics.length;
  const points = readMetrics(join(out, 'metrics.jsonl'));
  const last = round.metrics.at(-1)?.step ?? -1;
  const fresh = points.filter((p) => p.step > last);
  if (fresh.length > 0 && round.status === 'running') await commit({ type: 'record_metrics', points: fresh });
  const newPoints = round.metrics.length - before;
  const resultPath = join(out, 'result.json');
  if (!existsSync(resultPath) || round.status !== 'running') return { status: round.status, newPoints, lastStep: round.metrics.at(-1)?.step ?? null, checkpoint: round.checkpoint };

  const result = JSON.parse(readFileSync(resultPath, 'utf8')) as TrainResult;
  const file = join('trainer', 'checkpoints', `${result.hash}.pt`);
  if (!existsSync(join(workspaceDir, file))) {
    const weights = join(out, result.file);
    if (sha256Of(weights) !== result.hash) throw new Error(`the weights in ${weights} do not have the hash result.json gives`);
    mkdirSync(join(workspaceDir, 'trainer', 'checkpoints'), { recursive: true });
    copyFileSync(weights, join(workspaceDir, `${file}.tmp`));
    renameSync(join(workspaceDir, `${file}.tmp`), join(workspaceDir, file));
  }
  const dataset = (await resources.contentAt(round.dataset!.id, round.dataset!.revision)) as DatasetContent;
  const existing = (await resources.list({ kind: 'trainer.checkpoint' })).find((r) => {
    const c = r.content as CheckpointContent;
    return c.hash === result.hash && c.round === roundId;
  });
  const content: CheckpointContent = {
    hash: result.hash, file, parent: round.parent, round: roundId,
    data: { datasetId: round.dataset!.id, revision: round.dataset!.revision, hash: dataset.data!.hash },
    steps: result.steps, tokenizer: result.tokenizer, model: { ...result.model, params: result.params },
  };
  const checkpointId = existing?.id ?? (await resources.create({ kind: 'trainer.checkpoint', content, operator })).id;
  await commit({ type: 'set_checkpoint', checkpoint: { id: checkpointId, hash: result.hash } });
  await commit({ type: 'set_status', status: 'succeeded' });
  return { status: round.status, newPoints, lastStep: round.metrics.at(-1)?.step ?? null, checkpoint: round.checkpoint };
}

function readMetrics(path: string): MetricPoint[] {
  if (!existsSync(path)) return [];
  const points: MetricPoint[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    try {
      const p = JSON.parse(line) as MetricPoint;
      // Steps in increasing order only: a resumed job may repeat a few.
      if (points.length === 0 || p.step > points[points.length - 1]!.step) points.push(p);
    } catch {
      continue; // a line cut short by a kill; the resumed job reports those steps again
    }
  }
  return points;
}

function sha256Of(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}
