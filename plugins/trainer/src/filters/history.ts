import type { ChatSample } from '../sample';
import { runFilter, type FilterOutcome } from './report';

/**
 * History dedupe: a trajectory any ancestor round already trained on (same hash) is dropped, and
 * so is a repeat within this dataset (its first occurrence stays). Repeats on purpose are what
 * multipliers are for, not copies.
 */
export function historyFilter(samples: readonly ChatSample[], ancestorHashes: ReadonlySet<string>): FilterOutcome {
  const seen = new Set<string>();
  return runFilter('history', samples, (sample) => {
    if (ancestorHashes.has(sample.hash)) return { reason: 'trained_by_ancestor', detail: `an ancestor round already trained on ${sample.hash.slice(0, 12)}` };
    if (seen.has(sample.hash)) return { reason: 'duplicate_in_dataset', detail: `${sample.hash.slice(0, 12)} appears earlier in this dataset` };
    seen.add(sample.hash);
    return undefined;
  });
}
