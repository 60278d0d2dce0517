import type { ChatSample } from '../sample';

/** One dropped trajectory and why: a reason code (counted) and a detail a person reads. */
export interface Dropped {
  readonly hash: string;
  readonly source: string;
  readonly agent: string;
  readonly reason: string;
  readonly detail: string;
}

/** What one filter did: how many came in and stayed, and each drop with its reason. */
export interface FilterReport {
  readonly filter: string;
  readonly input: number;
  readonly kept: number;
  readonly dropped: readonly Dropped[];
  /** Drops per reason code. */
  readonly byReason: Readonly<Record<string, number>>;
}

export interface FilterOutcome {
  readonly kept: ChatSample[];
  readonly report: FilterReport;
}

/** Runs a per-sample judgement (undefined: keep; otherwise why to drop) and reports it. */
export function runFilter(filter: string, samples: readonly ChatSample[], judge: (sample: ChatSample) => { reason: string; detail: string } | undefined): FilterOutcome {
  const kept: ChatSample[] = [];
  const dropped: Dropped[] = [];
  for (const sample of samples) {
    const verdict = judge(sample);
    if (verdict === undefined) kept.push(sample);
    else dropped.push({ hash: sample.hash, source: sample.source, agent: sample.agent, ...verdict });
  }
  const byReason: Record<string, number> = Object.create(null) as Record<string, number>;
  for (const d of dropped) byReason[d.reason] = (byReason[d.reason] ?? 0) + 1;
  return { kept, report: { filter, input: samples.length, kept: kept.length, dropped, byReason: { ...byReason } } };
}
