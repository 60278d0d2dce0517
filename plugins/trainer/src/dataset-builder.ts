import type { Json } from '@cowork/host';
import { trainerError } from './errors';
import { hashJson } from './hash';
import type { FilterReport } from './filters/report';
import { historyFilter } from './filters/history';
import { rubricFilter } from './filters/rubric';
import { similarityFilter, SIMILARITY_THRESHOLD, type HeldoutTask } from './filters/similarity';
import { validityFilter, type ToolSpec } from './filters/validity';
import type { LoadedRun } from './run-record';
import { samplesOf, type ChatSample } from './sample';
import { tokenShare, type TokenShareOptions, type TokenShareReport } from './token-share';
import { pieceCounter, o200kCounter, sampleTokens } from './tokens';

/** Where a dataset's samples came from: one run record. */
export interface SourceInfo {
  readonly source: string;
  readonly suite: string;
  readonly task: string;
  readonly trial: number;
  readonly split: 'dev' | 'heldout' | 'unknown';
  readonly status: 'scored' | 'invalid';
  readonly group: string;
  readonly samples: number;
}

export interface Collection {
  readonly sources: SourceInfo[];
  readonly samples: ChatSample[];
}

/** Turns loaded run records into chat samples (one per agent), tagged with a sampling group (one for all, or per run). */
export function collect(runs: readonly LoadedRun[], groupOf: string | ((run: LoadedRun) => string) = 'new'): Collection {
  if (runs.length === 0) throw trainerError('empty_dataset', 'no run records to collect: give run folders or record files');
  const sources: SourceInfo[] = [];
  const samples: ChatSample[] = [];
  for (const run of runs) {
    const group = typeof groupOf === 'string' ? groupOf : groupOf(run);
    const own = samplesOf(run, group);
    samples.push(...own);
    const r = run.record;
    sources.push({ source: run.source, suite: r.suite, task: r.task, trial: r.trial, split: run.split, status: r.status, group, samples: own.length });
  }
  if (samples.length === 0) throw trainerError('empty_dataset', `the ${runs.length} run record(s) hold no conversation to train on`);
  return { sources, samples };
}

/** A kept trajectory as the manifest lists it. */
export interface TrajectoryEntry {
  readonly hash: string;
  readonly source: string;
  readonly agent: string;
  readonly task: string;
  readonly group: string;
  /** Supervised and total tokens in the standard tokenizer and in the model's own (pieces). */
  readonly supervisedTokens: number;
  readonly totalTokens: number;
  readonly supervisedModelTokens: number;
}

export interface FilterSettings {
  readonly tools: readonly ToolSpec[];
  readonly heldout: readonly HeldoutTask[];
  /** Trajectory hashes every ancestor round trained on. */
  readonly ancestorHashes: ReadonlySet<string>;
  readonly threshold?: number;
  readonly tokenShare?: TokenShareOptions;
}

export interface FilterResult {
  readonly kept: ChatSample[];
  readonly filters: FilterReport[];
  readonly trajectories: TrajectoryEntry[];
  readonly tokenShare: { readonly standard: TokenShareReport; readonly model: TokenShareReport };
  readonly heldout: { readonly tasks: number; readonly hash: string; readonly threshold: number };
}

/**
 * Runs the filters in order (validity, rubric, history, held-out similarity), each on what the one
 * before kept, and reports token shares over what is left. Refuses (`empty_dataset`, with every
 * filter's counts) when nothing is left: an empty dataset is never written.
 */
export function filterSamples(samples: readonly ChatSample[], settings: FilterSettings): FilterResult {
  if (samples.length === 0) throw trainerError('empty_dataset', 'the dataset has no collected samples to filter');
  const threshold = settings.threshold ?? SIMILARITY_THRESHOLD;
  const steps = [
    (s: readonly ChatSample[]) => validityFilter(s, settings.tools),
    (s: readonly ChatSample[]) => rubricFilter(s),
    (s: readonly ChatSample[]) => historyFilter(s, settings.ancestorHashes),
    (s: readonly ChatSample[]) => similarityFilter(s, settings.heldout, threshold),
  ];
  let kept: readonly ChatSample[] = samples;
  const filters: FilterReport[] = [];
  for (const step of steps) {
    const outcome = step(kept);
    filters.push(outcome.report);
    kept = outcome.kept;
  }
  if (kept.length === 0) {
    const counts = filters.map((f) => `${f.filter} kept ${f.kept} of ${f.input}${Object.keys(f.byReason).length ? ` (${Object.entries(f.byReason).map(([r, n]) => `${r} ${n}`).join(', ')})` : ''}`);
    throw trainerError('empty_dataset', `every trajectory was filtered out: ${counts.join('; ')}`, { filters: filters.map((f) => ({ filter: f.filter, input: f.input, kept: f.kept, byReason: f.byReason as Json })) });
  }
  const trajectories = kept.map((sample) => {
    const standard = sampleTokens(sample, o200kCounter);
    const own = sampleTokens(sample, pieceCounter);
    return { hash: sample.hash, source: sample.source, agent: sample.agent, task: sample.task, group: sample.group, supervisedTokens: standard.supervised, totalTokens: standard.total, supervisedModelTokens: own.supervised };
  });
  return {
    kept: [...kept],
    filters,
    trajectories,
    tokenShare: {
      standard: tokenShare(o200kCounter.name, trajectories.map((t) => t.supervisedTokens), settings.tokenShare),
      model: tokenShare(pieceCounter.name, trajectories.map((t) => t.supervisedModelTokens), settings.tokenShare),
    },
    heldout: { tasks: settings.heldout.length, hash: hashJson(settings.heldout.map((t) => [t.id, t.request])), threshold },
  };
}
