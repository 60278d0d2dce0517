import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { MetricDirection, MetricPoint, MetricSummary } from '../store/run-records';
import { isPlainObject } from '../util/json';

/**
 * The metrics formats a run reads (README, "Runs"). One metrics line is taken whole or not at all:
 * a line with any bad field is a problem (its number and why) and adds nothing.
 *
 * `metrics.jsonl` in the job's working folder, one JSON object a line, either
 *   {"name": "loss", "value": 0.5, "step": 3}        one metric, or
 *   {"step": 3, "loss": 0.5, "acc": 0.9}             several (every key but `step` is a metric).
 * `step` is optional, a non-negative integer; values are finite numbers.
 *
 * stdout lines `METRIC name=value [name=value ...] [step=N]` (space-separated, nothing else on the
 * line), e.g. `METRIC loss=0.5 acc=0.9 step=3`.
 */

/** Metric names: letters, digits and `_ . - / :`, at most 64 characters. */
const METRIC_NAME = /^[A-Za-z_][A-Za-z0-9_.\-/:]{0,63}$/;
/** Most bytes read from a metrics file in one pass; the rest is read by the next. */
export const MAX_READ_BYTES = 4 * 1024 * 1024;
/** Longest metrics line taken (longer: a problem). */
export const MAX_LINE_BYTES = 64 * 1024;
/** Most metrics on one line. */
const MAX_METRICS_PER_LINE = 100;

export type ParsedLine = { readonly ok: true; readonly points: { name: string; step: number | null; value: number }[] } | { readonly ok: false; readonly reason: string };

/** One line of `metrics.jsonl` (without its newline). */
export function parseMetricsJsonLine(text: string): ParsedLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: `not JSON: ${(error as Error).message}` };
  }
  if (!isPlainObject(value)) return { ok: false, reason: 'not a JSON object' };
  const step = checkStep(value.step);
  if (typeof step === 'string') return { ok: false, reason: step };
  if ('name' in value) {
    const extra = Object.keys(value).filter((k) => k !== 'name' && k !== 'value' && k !== 'step');
    if (extra.length > 0) return { ok: false, reason: `a {"name", "value"} line has no other fields (found ${extra.map((k) => JSON.stringify(k)).join(', ')})` };
    if (typeof value.name !== 'string' || !METRIC_NAME.test(value.name)) return { ok: false, reason: `name must match ${METRIC_NAME.source}` };
    if (typeof value.value !== 'number' || !Number.isFinite(value.value)) return { ok: false, reason: `value of ${JSON.stringify(value.name)} must be a finite number` };
    return { ok: true, points: [{ name: value.name, step, value: value.value }] };
  }
  const points: { name: string; step: number | null; value: number }[] = [];
  for (const [name, v] of Object.entries(value)) {
    if (name === 'step') continue;
    if (!METRIC_NAME.test(name)) return { ok: false, reason: `metric name ${JSON.stringify(name)} must match ${METRIC_NAME.source}` };
    if (typeof v !== 'number' || !Number.isFinite(v)) return { ok: false, reason: `value of ${JSON.stringify(name)} must be a finite number` };
    points.push({ name, step, value: v });
  }
  return checkCount(points);
}

/** One stdout line: the points of a `METRIC ...` line, null for any other line. */
export function parseMetricStdoutLine(text: string): ParsedLine | null {
  if (!text.startsWith('METRIC ')) return null;
  const pairs = text.slice('METRIC '.length).trim().split(/\s+/).filter((p) => p !== '');
  const values: { name: string; value: number }[] = [];
  let step: number | null = null;
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) return { ok: false, reason: `${JSON.stringify(pair)} is not name=value` };
    const name = pair.slice(0, eq);
    const raw = pair.slice(eq + 1);
    const number = raw.trim() === '' ? Number.NaN : Number(raw);
    if (name === 'step') {
      const checked = checkStep(number);
      if (typeof checked === 'string') return { ok: false, reason: checked };
      step = checked;
      continue;
    }
    if (!METRIC_NAME.test(name)) return { ok: false, reason: `metric name ${JSON.stringify(name)} must match ${METRIC_NAME.source}` };
    if (!Number.isFinite(number)) return { ok: false, reason: `value of ${JSON.stringify(name)} must be a finite number (got ${JSON.stringify(raw)})` };
    values.push({ name, value: number });
  }
  return checkCount(values.map((v) => ({ ...v, step })));
}

function checkStep(step: unknown): number | null | string {
  if (step === undefined) return null;
  if (typeof step !== 'number' || !Number.isSafeInteger(step) || step < 0) return 'step must be a non-negative integer';
  return step;
}

function checkCount(points: { name: string; step: number | null; value: number }[]): ParsedLine {
  if (points.length === 0) return { ok: false, reason: 'no metric on the line' };
  if (points.length > MAX_METRICS_PER_LINE) return { ok: false, reason: `more than ${MAX_METRICS_PER_LINE} metrics on one line` };
  return { ok: true, points };
}

/** Lower is better for names containing one of these; higher otherwise (a run's `goal` overrides). */
const LOWER_IS_BETTER = /loss|error|err|mse|mae|perplexity|latency/i;

export function defaultDirection(name: string): MetricDirection {
  return LOWER_IS_BETTER.test(name) ? 'min' : 'max';
}

/** The summaries after adding `points` (in order) to `summaries`. */
export function summarise(
  summaries: Readonly<Record<string, MetricSummary>>,
  points: readonly MetricPoint[],
  direction: (name: string) => MetricDirection,
): Record<string, MetricSummary> {
  const next: Record<string, MetricSummary> = { ...summaries };
  for (const p of points) {
    const prior = next[p.name];
    const dir = prior?.direction ?? direction(p.name);
    const better = prior === undefined || (dir === 'min' ? p.value < prior.best : p.value > prior.best);
    next[p.name] = {
      last: p.value,
      lastStep: p.step,
      best: better ? p.value : prior.best,
      bestStep: better ? p.step : prior.bestStep,
      direction: dir,
      count: (prior?.count ?? 0) + 1,
    };
  }
  return next;
}

/**
 * The complete lines of `path` from byte `offset` (at most MAX_READ_BYTES): each line's text, and
 * the offset after the last complete one. A last line without its newline is left for later unless
 * `final` (the job ended). A file shorter than `offset` was rewritten: `shrank`.
 */
export function readLinesFrom(path: string, offset: number, final: boolean): { lines: { text: string; tooLong: boolean }[]; offset: number; shrank: boolean; more: boolean } {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return { lines: [], offset, shrank: false, more: false };
  }
  try {
    const size = fstatSync(fd).size;
    if (size < offset) return { lines: [], offset, shrank: true, more: false };
    const length = Math.min(size - offset, MAX_READ_BYTES);
    const buffer = Buffer.alloc(length);
    let read = 0;
    while (read < length) {
      const n = readSync(fd, buffer, read, length - read, offset + read);
      if (n === 0) break;
      read += n;
    }
    const lines: { text: string; tooLong: boolean }[] = [];
    let start = 0;
    for (let i = 0; i < read; i++) {
      if (buffer[i] !== 0x0a) continue;
      lines.push(line(buffer.subarray(start, i)));
      start = i + 1;
    }
    const atEnd = offset + read === size;
    if (start < read && ((final && atEnd) || (start === 0 && read === MAX_READ_BYTES))) {
      // The job's last line without a newline, or a line longer than a whole pass.
      lines.push(line(buffer.subarray(start, read)));
      start = read;
    }
    return { lines, offset: offset + start, shrank: false, more: !atEnd };
  } finally {
    closeSync(fd);
  }
}

function line(bytes: Buffer): { text: string; tooLong: boolean } {
  if (bytes.length > MAX_LINE_BYTES) return { text: '', tooLong: true };
  const text = bytes.toString('utf8');
  return { text: text.endsWith('\r') ? text.slice(0, -1) : text, tooLong: false };
}
