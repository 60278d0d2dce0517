import type { JobService } from '../jobs/job-service';
import type { MonitorService } from '../monitors/monitor-service';
import { tokenizerFor, type Tokenizer } from '../models/tokenizer';
import type { Json } from '../store/records';
import type { MetricSummary, RunRecord } from '../store/run-records';
import { isPlainObject } from '../util/json';
import type { Runs } from './runs';

/** Tokens the digest may take in Main's context (counted with the model's tokenizer). */
export const DIGEST_MAX_TOKENS = 600;
/** Metrics shown per run, and in the best-run line. */
const METRICS_PER_RUN = 4;
const BEST_METRICS = 6;
/** Running jobs and active monitors listed. */
const LIVE_ITEMS = 5;
/** Longest text of one field (a name, a parameter, a log line). */
const FIELD_CHARS = 60;

export interface DigestDeps {
  readonly runs: Pick<Runs, 'list'>;
  readonly jobs: Pick<JobService, 'list' | 'logs'>;
  readonly monitors: Pick<MonitorService, 'list'>;
}

/**
 * The runs digest of Main's context (README, "Runs"): the task's recent runs (status, key metrics'
 * last and best values, which params changed against the run before), the best run per metric, its
 * running jobs (with their last stdout line) and active monitors, in at most `maxTokens`. Built from
 * the store alone (after reading what the jobs added), with no clock in it, so a host reopened after
 * a crash builds the same text. Empty when the task has none of these.
 */
export async function runsDigest(deps: DigestDeps, taskId: string, options: { maxTokens?: number; tokenizer?: Tokenizer } = {}): Promise<string> {
  const maxTokens = options.maxTokens ?? DIGEST_MAX_TOKENS;
  const tokenizer = options.tokenizer ?? tokenizerFor();
  const runs = await deps.runs.list(taskId);
  const jobs = (await deps.jobs.list({ taskId, status: 'running' })).slice(-LIVE_ITEMS);
  const monitors = (await deps.monitors.list({ taskId, status: 'active' })).slice(0, LIVE_ITEMS);
  const fixed: string[] = [];
  const best = bestLine(runs);
  if (best) fixed.push(best);
  if (jobs.length > 0) {
    const lines = [];
    for (const job of jobs) {
      const last = (await deps.jobs.logs(job.id, { tail: 1 }).catch(() => undefined))?.lines[0]?.text;
      lines.push(`- ${job.id}${job.name ? ` ${quote(job.name)}` : ''} running since ${job.startedAt ?? job.createdAt}${last ? `; last output: ${quote(last)}` : ''}`);
    }
    fixed.push(`Jobs running:\n${lines.join('\n')}`);
  }
  if (monitors.length > 0) {
    fixed.push(`Monitors active:\n${monitors.map((m) => `- ${m.id}${m.name ? ` ${quote(m.name)}` : ''} (${m.kind}), ${m.seq} events`).join('\n')}`);
  }
  if (runs.length === 0 && fixed.length === 0) return '';
  const runLines = runs.map((run, i) => runLine(run, runs[i + 1]));
  const head = runs.length > 0 ? `Runs (${runs.length}, newest first):` : 'No runs yet.';
  const compose = (shown: number): string => {
    const parts = [head, ...runLines.slice(0, shown)];
    if (shown < runs.length) parts.push(`… ${runs.length - shown} more runs (list_runs shows them)`);
    return [...parts, ...fixed].join('\n');
  };
  let shown = runs.length;
  while (shown > 0 && tokenizer.countText(compose(shown)) > maxTokens) shown--;
  let text = compose(shown);
  // The live part alone may still be too long: cut it at the budget.
  while (tokenizer.countText(text) > maxTokens && text.length > 0) text = `${text.slice(0, Math.floor(text.length * 0.9))}…`;
  return text;
}

function runLine(run: RunRecord, previous: RunRecord | undefined): string {
  const names = Object.keys(run.metrics).sort();
  const ordered = run.goal && run.metrics[run.goal.metric] ? [run.goal.metric, ...names.filter((n) => n !== run.goal!.metric)] : names;
  const metrics = ordered.slice(0, METRICS_PER_RUN).map((name) => metricText(name, run.metrics[name]!));
  if (ordered.length > METRICS_PER_RUN) metrics.push(`+${ordered.length - METRICS_PER_RUN} more metrics`);
  const parts = [`- ${quote(run.name)} (${run.id}) ${run.status}`, metrics.length > 0 ? metrics.join(', ') : 'no metrics yet'];
  if (previous) {
    const changed = paramChanges(previous.params, run.params);
    if (changed) parts.push(`changed vs ${quote(previous.name)}: ${changed}`);
  }
  if (run.problemCount > 0) parts.push(`${run.problemCount} bad metrics lines (run_status shows them)`);
  return parts.join('; ');
}

function metricText(name: string, m: MetricSummary): string {
  return `${name} ${num(m.last)}${stepText(m.lastStep)} (best ${num(m.best)}${stepText(m.bestStep)}, ${m.direction})`;
}

function stepText(step: number | null): string {
  return step === null ? '' : ` @${step}`;
}

/** The best run per metric, across the task's runs. */
function bestLine(runs: readonly RunRecord[]): string | undefined {
  const best = new Map<string, { run: RunRecord; value: number; direction: 'min' | 'max' }>();
  // Oldest first, so that a tie goes to the earlier run.
  for (const run of [...runs].reverse()) {
    for (const [name, m] of Object.entries(run.metrics)) {
      const prior = best.get(name);
      if (!prior || (m.direction === 'min' ? m.best < prior.value : m.best > prior.value)) best.set(name, { run, value: m.best, direction: m.direction });
    }
  }
  if (best.size === 0) return undefined;
  const names = [...best.keys()].sort();
  const items = names.slice(0, BEST_METRICS).map((name) => {
    const b = best.get(name)!;
    return `${name} ${num(b.value)} (${b.direction}) in ${quote(b.run.name)} (${b.run.id})`;
  });
  if (names.length > BEST_METRICS) items.push(`+${names.length - BEST_METRICS} more metrics`);
  return `Best: ${items.join('; ')}`;
}

/** Which top-level params differ, as `key a→b`. */
function paramChanges(before: Json, after: Json): string {
  const a = isPlainObject(before) ? before : {};
  const b = isPlainObject(after) ? after : {};
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  const changes = keys
    .filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]))
    .map((k) => `${clip(k)} ${k in a ? clip(JSON.stringify(a[k])) : '(none)'}→${k in b ? clip(JSON.stringify(b[k])) : '(none)'}`);
  return changes.slice(0, 4).join(', ') + (changes.length > 4 ? `, +${changes.length - 4} more` : '');
}

function num(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(4)));
}

function clip(text: string): string {
  return text.length > FIELD_CHARS ? `${text.slice(0, FIELD_CHARS - 1)}…` : text;
}

/** Text from agents or jobs, quoted so that it reads as data. */
function quote(text: string): string {
  return JSON.stringify(clip(text));
}
