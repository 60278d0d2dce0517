import type { ResourceReader } from '@cowork/host';
import { trainerError } from './errors';
import type { CheckpointContent, Parent } from './kinds/checkpoint-kind';
import type { DatasetContent } from './kinds/dataset-kind';
import { readOfKind } from './read-of-kind';

export interface Ancestry {
  /** The checkpoints from the parent back to base, nearest first. */
  readonly checkpoints: string[];
  /** Every trajectory hash those checkpoints were trained on. */
  readonly hashes: Set<string>;
}

/**
 * What every ancestor round trained on: walks from a parent through each checkpoint's parent to
 * base, reading the dataset revision each checkpoint records. Checkpoints are immutable, so the
 * answer for a parent never changes. A cycle (impossible through the tools) is refused.
 */
export async function ancestry(parent: Parent, resources: ResourceReader): Promise<Ancestry> {
  const checkpoints: string[] = [];
  const hashes = new Set<string>();
  let next: Parent = parent;
  while (next.type === 'checkpoint') {
    const id = next.checkpointId;
    if (checkpoints.includes(id)) throw trainerError('wrong_kind', `checkpoint ${id} is its own ancestor`, { checkpointId: id });
    const { content: checkpoint } = await readOfKind<CheckpointContent>(resources, id, 'trainer.checkpoint', 'the checkpoint');
    checkpoints.push(id);
    const dataset = (await resources.contentAt(checkpoint.data.datasetId, checkpoint.data.revision)) as DatasetContent;
    for (const t of dataset.trajectories) hashes.add(t.hash);
    next = checkpoint.parent;
  }
  return { checkpoints, hashes };
}
