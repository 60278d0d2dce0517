import type { BootstrapOptions, ConfidenceInterval } from './bootstrap';
import { ciLabel, fixed, formatBudget, formatBudgetDifference, formatCi, formatElo } from './number-format';
import { groupByTask, summarize, type ResultsSummary } from './metrics';
import { compareResults, type Comparison } from './pairwise';
import type { ResultsFile, TrialResult } from './results-format';
import { barChart, escapeHtml as h, lineChart } from './svg-plot';

export interface ReportOptions {
  /** Another run (B) to compare this one (A) with over their common tasks. */
  readonly compareWith?: ResultsFile;
  /** Bootstrap settings for every interval on the page (default 1000 resamples, 95 %, seed 1). */
  readonly bootstrap?: BootstrapOptions;
}

/**
 * A self-contained HTML page of a run: the header (suite, model, split, trials, dates, budget), the
 * metrics with their bootstrap intervals, plots (score, tokens and time per task as bars, the pass^k
 * curve as a line), a table of tasks and a table of trials per task; with `compareWith`, W/L/T, Elo
 * and win rate against the other run, and a note when budgets differ. Inline CSS and SVG only: no
 * script, no external URL, every text escaped. Each figure carries its exact value in `data-value`.
 * Throws what `summarize` throws (`invalid_input`) for a file it cannot read.
 */
export function reportHtml(results: ResultsFile, options: ReportOptions = {}): string {
  const summary = summarize(results, options.bootstrap);
  const body = [
    header(summary),
    metricsSection(summary),
    options.compareWith === undefined ? '' : comparisonSection(results, options.compareWith, options.bootstrap),
    plots(summary),
    taskTable(summary),
    trialTables(results.trials),
  ];
  return (
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${h(`Benchmark run: ${summary.suite}`)}</title><style>${CSS}</style></head>\n<body>\n` +
    body.filter((part) => part !== '').join('\n') +
    `\n</body></html>\n`
  );
}

function header(s: ResultsSummary): string {
  const model = s.model.replay === null ? `${s.model.provider}${s.model.name === null ? '' : ` · ${s.model.name}`}` : `replay of ${s.model.replay}`;
  const rows: [string, string][] = [
    ['suite', s.suite],
    ['model', model],
    ['split', s.split],
    ['trials per task', String(s.trialsPerTask)],
    ['started', s.createdAt],
    ['updated', s.updatedAt],
    ['budget', formatBudget(s.budget)],
  ];
  return (
    `<h1>${h(`Benchmark run: ${s.suite}`)}</h1>\n<dl class="run">` +
    rows.map(([name, value]) => `<dt>${h(name)}</dt><dd data-field="${h(name)}">${h(value)}</dd>`).join('') +
    `</dl>`
  );
}

function metricsSection(s: ResultsSummary): string {
  const { metrics, ci, totals } = s;
  const rows = [
    metricRow('all-pass-rate', 'All-pass rate (%): trials whose every rubric item passed', metrics.allPassRate, ci.allPassRate),
    metricRow('cumulative-score', 'Cumulative rubric score (%): 100·Σs/Σm over every trial', metrics.cumulativeScore, ci.cumulativeScore),
    metricRow('per-task-mean-score', 'Per-task mean score (%): mean over tasks of 100·s/m', metrics.perTaskMeanScore, ci.perTaskMeanScore),
  ];
  if (metrics.cumulativeScoreScoredOnly !== null && totals.invalid > 0) {
    rows.push(metricRow('cumulative-score-scored-only', 'Cumulative score over scored trials only (%)', metrics.cumulativeScoreScoredOnly, null));
  }
  for (const point of metrics.passHatK) rows.push(metricRow(`pass-hat-${point.k}`, `pass^${point.k} (%)`, point.value, null));
  const counts =
    `<p class="totals">${h(String(totals.tasks))} tasks, ${h(String(totals.trials))} trials, <span data-total="passed">${h(String(totals.passed))}</span> passed, ` +
    `<span data-total="invalid">${h(String(totals.invalid))}</span> invalid (counted as failures and as 0 points); ` +
    `${h(fixed(totals.tokens.input + totals.tokens.output, 0))} tokens; runtime ${h(fixed(totals.seconds))} s, harness ` +
    `${h(fixed(totals.setupSeconds))} s set-up and ${h(fixed(totals.scoringSeconds))} s scoring.</p>`;
  const warnings = s.warnings.length === 0 ? '' : `<ul class="warnings">${s.warnings.map((w) => `<li>${h(w)}</li>`).join('')}</ul>`;
  return (
    `<h2>Metrics</h2>\n<table class="metrics"><thead><tr><th>metric</th><th>value</th><th>${h(ciLabel(ci.allPassRate))} (tasks resampled)</th></tr></thead>` +
    `<tbody>${rows.join('')}</tbody></table>\n${counts}${warnings}`
  );
}

function metricRow(id: string, name: string, value: number, ci: ConfidenceInterval | null): string {
  const interval = ci === null ? '' : `<span data-low="${h(String(ci.low))}" data-high="${h(String(ci.high))}">${h(formatCi(ci))}</span>`;
  return `<tr data-metric="${h(id)}"><td>${h(name)}</td><td class="num" data-value="${h(String(value))}">${h(fixed(value))}</td><td class="num">${interval}</td></tr>`;
}

function comparisonSection(a: ResultsFile, b: ResultsFile, bootstrap: BootstrapOptions | undefined): string {
  const other = `${b.suite}, ${b.model.replay === null ? (b.model.name ?? b.model.provider) : `replay of ${b.model.replay}`}, ${b.createdAt}`;
  const title = `<h2>Comparison with another run</h2>\n<p>A is this run; B is ${h(other)}.</p>`;
  const common = new Set(b.trials.map((t) => t.task));
  if (!a.trials.some((t) => common.has(t.task))) return `${title}<p class="note">The two runs have no task in common; nothing to compare.</p>`;
  const c: Comparison = compareResults(a.trials, b.trials, bootstrap);
  const notes: string[] = [];
  if (a.suite !== b.suite) notes.push(`The runs are of different suites (${a.suite} and ${b.suite}).`);
  if (!c.budgets.equal) {
    const shown = c.budgets.differences.slice(0, 20).map(formatBudgetDifference);
    const more = c.budgets.differences.length - shown.length;
    notes.push(`Budgets differ, so this is not a comparison at equal budgets: ${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}.`);
  }
  if (c.elo.unbounded !== null) notes.push(`Elo is unbounded: A ${c.elo.unbounded === 'above' ? 'neither lost nor tied' : 'neither won nor tied'} any task; the figure shown is clamped (half a tie in place of zero).`);
  if (c.onlyInA.length + c.onlyInB.length > 0) notes.push(`Left out: ${c.onlyInA.length} tasks only in A, ${c.onlyInB.length} only in B.`);
  const figure = (id: string, name: string, value: number, text: string, ci: string): string =>
    `<tr data-metric="${h(id)}"><td>${h(name)}</td><td class="num" data-value="${h(String(value))}">${h(text)}</td><td class="num">${h(ci)}</td></tr>`;
  const rows = [
    figure('wins', 'Wins of A', c.wins, String(c.wins), ''),
    figure('losses', 'Losses of A', c.losses, String(c.losses), ''),
    figure('ties', `Ties (${c.bothInvalid} with both sides invalid)`, c.ties, String(c.ties), ''),
    figure('win-rate', 'Win rate of A (%): 100·(W+T/2)/N', c.winRate, fixed(c.winRate), formatCi(c.ci.winRate)),
    figure('elo', 'Elo of A: 1000 + 400·log10((W+T/2)/(L+T/2))', c.elo.elo, formatElo(c.elo), `${formatElo(c.ci.elo.low)} to ${formatElo(c.ci.elo.high)}`),
  ];
  const perTask = c.tasks
    .map((t) => `<tr><td>${h(t.task)}</td><td class="num">${h(scoreText(t.a))}</td><td class="num">${h(scoreText(t.b))}</td><td class="${h(t.outcome)}">${h(t.outcome)}</td></tr>`)
    .join('');
  return (
    `${title}\n<table class="metrics"><thead><tr><th>figure</th><th>value</th><th>${h(ciLabel(c.ci.winRate))}</th></tr></thead><tbody>${rows.join('')}</tbody></table>\n` +
    notes.map((note) => `<p class="note">${h(note)}</p>`).join('') +
    `\n<table class="tasks"><thead><tr><th>task</th><th>A score %</th><th>B score %</th><th>for A</th></tr></thead><tbody>${perTask}</tbody></table>`
  );
}

/** Rubric points: whole numbers as they are, fractions with two decimals. */
function points(value: number): string {
  return fixed(value, Number.isInteger(value) ? 0 : 2);
}

function scoreText(score: number | null): string {
  return score === null ? 'invalid' : fixed(score);
}

function plots(s: ResultsSummary): string {
  const bad = (invalid: number): 'bad' | 'normal' => (invalid > 0 ? 'bad' : 'normal');
  return (
    `<h2>Plots</h2>\n<div class="plots">` +
    barChart({ title: 'Mean score per task (%)', max: 100, unit: '%', bars: s.tasks.map((t) => ({ label: t.task, value: t.meanScore, tone: bad(t.invalid) })) }) +
    barChart({ title: 'Tokens per trial, by task', unit: 'tokens', bars: s.tasks.map((t) => ({ label: t.task, value: t.tokens, text: fixed(t.tokens, 0) })) }) +
    barChart({ title: 'Runtime seconds per trial, by task', unit: 's', bars: s.tasks.map((t) => ({ label: t.task, value: t.seconds })) }) +
    lineChart({ title: 'pass^k (%)', xLabel: 'k', yLabel: 'pass^k %', yMax: 100, points: s.metrics.passHatK.map((p) => ({ x: p.k, y: p.value })) }) +
    `</div>`
  );
}

function taskTable(s: ResultsSummary): string {
  // One budget for the whole run is in the header; a column only when budgets vary.
  const perTaskBudget = s.budget === null;
  const rows = s.tasks.map(
    (t) =>
      `<tr data-task="${h(t.task)}"><td>${h(t.task)}</td><td>${h(t.split)}</td><td class="num">${h(String(t.trials))}</td>` +
      `<td class="num" data-value="${h(String(t.passed))}">${h(String(t.passed))}</td><td class="num">${h(String(t.invalid))}</td>` +
      `<td class="num" data-value="${h(String(t.meanScore))}">${h(fixed(t.meanScore))}</td><td class="num">${h(`${points(t.earned)} / ${points(t.max)}`)}</td>` +
      `<td class="num" data-value="${h(String(t.tokens))}">${h(fixed(t.tokens, 0))}</td><td class="num" data-value="${h(String(t.seconds))}">${h(fixed(t.seconds))}</td>` +
      (perTaskBudget ? `<td>${h(formatBudget(t.budget))}</td>` : '') +
      `</tr>`,
  );
  return (
    `<h2>Tasks</h2>\n<table class="tasks"><thead><tr><th>task</th><th>split</th><th>trials</th><th>passed</th><th>invalid</th>` +
    `<th>mean score %</th><th>points</th><th>tokens / trial</th><th>seconds / trial</th>${perTaskBudget ? '<th>budget</th>' : ''}</tr></thead><tbody>${rows.join('')}</tbody></table>`
  );
}

function trialTables(trials: readonly TrialResult[]): string {
  const sections = groupByTask(trials).map((group) => {
    const rows = group.trials.map((t) => {
      const failed = t.items.filter((item) => !item.pass).map((item) => `${item.id}: ${item.detail}`);
      const notes = t.status === 'invalid' ? `invalid: ${t.reason ?? 'no reason given'}` : failed.join('; ');
      return (
        `<tr><td class="num">${h(String(t.trial))}</td><td class="${t.status === 'invalid' ? 'loss' : t.passed ? 'win' : ''}">${t.status === 'invalid' ? 'invalid' : t.passed ? 'passed' : 'failed'}</td>` +
        `<td>${h(t.outcome)}</td><td class="num">${h(`${points(t.status === 'invalid' ? 0 : t.score)} / ${points(t.maxScore)}`)}</td>` +
        `<td class="num">${h(fixed(t.tokens.input + t.tokens.output, 0))}</td><td class="num">${h(fixed(t.seconds))}</td>` +
        `<td>${h(t.record)}</td><td>${h(notes)}</td></tr>`
      );
    });
    return (
      `<section><h3>${h(group.task)}</h3><table class="trials"><thead><tr><th>trial</th><th>result</th><th>outcome</th><th>points</th>` +
      `<th>tokens</th><th>seconds</th><th>record</th><th>failed items / reason</th></tr></thead><tbody>${rows.join('')}</tbody></table></section>`
    );
  });
  return `<h2>Trials by task</h2>\n${sections.join('\n')}`;
}

const CSS = [
  'body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1100px;padding:0 16px;color:#1d1d1f}',
  'h1{font-size:22px}h2{font-size:18px;margin-top:28px;border-bottom:1px solid #ddd}h3{font-size:15px;margin:18px 0 6px}',
  'dl.run{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px}dt{color:#666}dd{margin:0}',
  'table{border-collapse:collapse;margin:8px 0}th,td{padding:3px 8px;border-bottom:1px solid #eee;text-align:left;vertical-align:top}',
  'th{background:#f5f5f7;font-weight:600}td.num{text-align:right;font-variant-numeric:tabular-nums}',
  '.win{color:#17703a}.loss{color:#b3261e}.note,.warnings{color:#8a5300}',
  '.plots{display:flex;flex-wrap:wrap;gap:18px}svg.plot{font-size:11px;background:#fff}',
  '.plot-title{font-weight:600;font-size:12px}.bar{fill:#3a6ea5}.bar.bad{fill:#c0584f}',
  '.axis{stroke:#888}.grid{stroke:#eee}.line{fill:none;stroke:#3a6ea5;stroke-width:2}.dot{fill:#3a6ea5}',
].join('');
