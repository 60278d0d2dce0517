import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCalls, writeFileAtomic, type Json, type Operator, type ResourceApi, type TrialRun } from '@cowork/host';
import { trainerError } from '../errors';
import { FAMILIES, FAMILY_TOOL } from '../family/families';
import type { CheckpointContent } from '../kinds/checkpoint-kind';
import type { DatasetContent } from '../kinds/dataset-kind';
import type { Comparison, RoundEvaluation } from '../kinds/round-kind';
import { readOfKind } from '../read-of-kind';
import { renderRoundReport } from '../report/round-report';
import { familyOfTask } from '../suite';
import { readRound } from '../training/prepare';
import { insideWorkspace } from '../tools/paths';
import { readResults } from '../run-record';
import { heldOutScores } from './held-out-scores';

export interface EvaluateRoundInput {
  readonly roundId: string;
  /** The benchmark run folder (relative to the workspace) of the round's checkpoint on the held-out split. */
  readonly run: string;
  /** Rounds to compare with, by label (`parent`, `control`): each must be evaluated already. */
  readonly compare?: Readonly<Record<string, string>>;
}

/** Where a round's report file goes, relative to the workspace. */
export function reportPath(roundId: string): string {
  return join('trainer', 'reports', `${roundId}.html`);
}

/**
 * Scores a succeeded round's held-out run per task family, compares it with other evaluated
 * rounds, writes the report page (atomically) and records both on the round in one commit.
 * Nothing is written when the run, the round or a compared round is not what it should be.
 */
export async function evaluateRound(resources: ResourceApi, workspaceDir: string, operator: Operator, input: EvaluateRoundInput): Promise<RoundEvaluation & { report: string }> {
  const { revision, content: round } = await readRound(resources, input.roundId);
  if (round.status !== 'succeeded' || round.checkpoint === null || round.dataset === null) {
    throw trainerError('not_evaluated', `the round ${input.roundId} is ${round.status}: evaluate a round once its checkpoint is made`, { resourceId: input.roundId });
  }
  const runDir = insideWorkspace(workspaceDir, input.run);
  const results = readResults(runDir, input.run);
  const usedTool = (trial: { task: string; record?: string }) => {
    const family = familyOfTask(trial.task);
    return family !== undefined && trial.record !== undefined && recordCalls(join(runDir, trial.record)).includes(FAMILY_TOOL[family]);
  };
  const { groups, overall } = heldOutScores(results, familyOfTask, FAMILIES, usedTool);
  const comparisons: Comparison[] = [];
  for (const [label, otherId] of Object.entries(input.compare ?? {})) {
    const { content: other } = await readRound(resources, otherId);
    if (!other.evaluation) throw trainerError('not_evaluated', `the round ${otherId} (${label}) has no evaluation yet: evaluate it first`, { resourceId: otherId });
    const deltas = groups.flatMap((g) => {
      const theirs = other.evaluation!.families.find((f) => f.family === g.family);
      return theirs === undefined ? [] : [{ family: g.family, delta: Math.round((g.rate - theirs.rate) * 10000) / 10000 }];
    });
    comparisons.push({ label, roundId: otherId, name: other.name, deltas });
  }
  const evaluation: RoundEvaluation = { run: input.run, suite: results.suite, model: results.model, families: groups, overall, comparisons };
  const dataset = { id: round.dataset.id, revision: round.dataset.revision, content: (await resources.contentAt(round.dataset.id, round.dataset.revision)) as DatasetContent };
  const checkpoint = await readOfKind<CheckpointContent>(resources, round.checkpoint.id, 'trainer.checkpoint', 'the checkpoint');
  const report = reportPath(input.roundId);
  mkdirSync(join(workspaceDir, 'trainer', 'reports'), { recursive: true });
  writeFileAtomic(join(workspaceDir, report), renderRoundReport({ roundId: input.roundId, round, evaluation, dataset, checkpoint: { id: round.checkpoint.id, content: checkpoint.content } }));
  await resources.commit(input.roundId, { baseRevision: revision, op: { type: 'record_evaluation', evaluation: evaluation as unknown as Json, report } as never, operator });
  return { ...evaluation, report };
}

/** The tools a run record's agents called, by name (none when the record cannot be read). */
function recordCalls(path: string): string[] {
  try {
    return runCalls(JSON.parse(readFileSync(path, 'utf8')) as TrialRun).map((c) => c.name);
  } catch {
    return [];
  }
}
