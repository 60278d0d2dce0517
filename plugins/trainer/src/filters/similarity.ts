import { Bm25 } from '../bm25';
import type { ChatSample } from '../sample';
import { runFilter, type FilterOutcome } from './report';

/** A task the model is evaluated on: its text must not be trained on, nor anything close to it. */
export interface HeldoutTask {
  readonly id: string;
  readonly request: string;
}

export const SIMILARITY_THRESHOLD = 0.8;

/**
 * BM25 similarity to every held-out task (see bm25.ts for the normalisation): a trajectory whose
 * request reaches `threshold` against any held-out request is dropped, naming the closest one.
 */
export function similarityFilter(samples: readonly ChatSample[], heldout: readonly HeldoutTask[], threshold = SIMILARITY_THRESHOLD): FilterOutcome {
  const bm25 = new Bm25([...samples.map((s) => s.request), ...heldout.map((t) => t.request)]);
  return runFilter('heldout_similarity', samples, (sample) => {
    let best: { task: string; score: number } | undefined;
    for (const task of heldout) {
      const score = bm25.similarity(task.request, sample.request);
      if (best === undefined || score > best.score) best = { task: task.id, score };
    }
    if (best !== undefined && best.score >= threshold) {
      return { reason: 'near_heldout', detail: `request is ${best.score.toFixed(3)} similar to held-out task ${best.task} (threshold ${threshold})` };
    }
    return undefined;
  });
}
