import type { Json } from '../store/records';
import type { RunRecord } from '../store/run-records';
import { isPlainObject } from '../util/json';

/**
 * Runs side by side (compare_runs): the params that differ between them (each run's value, absent
 * as null), every metric's last and best per run with the run that did best, in the order given.
 */
export function compareRuns(runs: readonly RunRecord[]): Json {
  const params = runs.map((r) => (isPlainObject(r.params) ? r.params : {}));
  const keys = [...new Set(params.flatMap((p) => Object.keys(p)))].sort();
  const differing: Record<string, Json> = {};
  for (const key of keys) {
    const values = params.map((p) => (key in p ? p[key]! : null));
    if (new Set(values.map((v) => JSON.stringify(v))).size > 1) differing[key] = values;
  }
  const names = [...new Set(runs.flatMap((r) => Object.keys(r.metrics)))].sort();
  const metrics: Record<string, Json> = {};
  for (const name of names) {
    const per = runs.map((r) => r.metrics[name]);
    const direction = per.find((m) => m !== undefined)!.direction;
    let best: number | undefined;
    per.forEach((m, i) => {
      if (m === undefined) return;
      if (best === undefined || (direction === 'min' ? m.best < per[best]!.best : m.best > per[best]!.best)) best = i;
    });
    metrics[name] = {
      direction,
      runs: per.map((m) => (m === undefined ? null : { last: m.last, lastStep: m.lastStep, best: m.best, bestStep: m.bestStep })),
      bestRun: runs[best!]!.id,
    };
  }
  return {
    runs: runs.map((r) => ({ id: r.id, name: r.name, status: r.status, startedAt: r.startedAt, endedAt: r.endedAt })),
    paramsThatDiffer: differing,
    metrics,
  };
}
