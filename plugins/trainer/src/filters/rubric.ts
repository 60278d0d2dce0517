import type { ChatSample } from '../sample';
import { runFilter, type FilterOutcome } from './report';

/**
 * Failed runs by rubric: a trajectory is kept only when its trial was scored and every rubric item
 * passed (the all-pass rule); an invalid trial and a trial with no rubric items are dropped too.
 * Held-out trials are dropped here as well: held-out tasks never reach training data.
 */
export function rubricFilter(samples: readonly ChatSample[]): FilterOutcome {
  return runFilter('rubric', samples, (sample) => {
    if (sample.split === 'heldout') return { reason: 'heldout_split', detail: `${sample.task} is a held-out task` };
    if (sample.rubric === null) return { reason: 'invalid_trial', detail: `${sample.task} trial ${sample.trial} has no valid score` };
    if (sample.rubric.points === 0) return { reason: 'no_rubric', detail: `${sample.task} has no rubric items` };
    if (!sample.rubric.passed) return { reason: 'rubric_failed', detail: `${sample.task} trial ${sample.trial} earned ${sample.rubric.earned} of ${sample.rubric.points}` };
    return undefined;
  });
}
