/**
 * Invariant: the HTML report and the terminal table show the run's figures as the metrics compute
 * them (read back here from the page and the lines), the HTML is self-contained (no script, no
 * URL) and escapes every text, and a comparison shows W/L/T, Elo and win rate and says when
 * budgets differ.
 */
import { summarize } from '../../src/evaluation/metrics';
import { compareResults } from '../../src/evaluation/pairwise';
import { reportHtml } from '../../src/evaluation/report-html';
import { formatComparison, formatResultsTable } from '../../src/evaluation/results-table';
import { BUDGET, resultsFile, trial } from './metric-trials';

const EVIL = '<script>alert("x")</script>';
// deck: 4/5 and 5/5 (mean 90 %); EVIL: 9/15 and invalid (mean 30 %).
// Cumulative 18/40 = 45; per-task mean 60; all-pass 1/4 = 25; pass^1 = (1/2 + 0)/2 = 25; pass^2 = 0.
const RUN = resultsFile(
  [
    trial('deck', 4, 5, { items: [{ id: 'no-overflow', description: 'fits', points: 1, earned: 0, pass: false, detail: 'text <b>overflows</b> & spills' }], tokens: { input: 1500, output: 500 }, seconds: 12 }),
    trial('deck', 5, 5, { tokens: { input: 3500, output: 500 }, seconds: 18 }),
    trial(EVIL, 9, 15, { tokens: { input: 800, output: 200 }, seconds: 7 }),
    trial(EVIL, 'invalid', 15, { tokens: { input: 0, output: 0 }, seconds: 1, reason: 'checker <crashed>' }),
  ],
  { trialsPerTask: 2 },
);

function figure(html: string, metric: string): number {
  const match = new RegExp(`data-metric="${metric}"><td>[^<]*</td><td class="num" data-value="([^"]+)">([^<]+)</td>`).exec(html);
  if (match === null) throw new Error(`no ${metric} in the report`);
  expect(Number(match[2]!.replace(/,/g, ''))).toBeCloseTo(Number(match[1]), 1);
  return Number(match[1]);
}

describe('HTML report', () => {
  const html = reportHtml(RUN);

  it('holds the metrics as computed by hand', () => {
    expect(figure(html, 'all-pass-rate')).toBeCloseTo(25, 12);
    expect(figure(html, 'cumulative-score')).toBeCloseTo(45, 12);
    expect(figure(html, 'per-task-mean-score')).toBeCloseTo(60, 12);
    expect(figure(html, 'cumulative-score-scored-only')).toBeCloseTo(72, 12); // 18/25
    expect(figure(html, 'pass-hat-1')).toBeCloseTo(25, 12);
    expect(figure(html, 'pass-hat-2')).toBe(0);
    const ci = summarize(RUN).ci.cumulativeScore;
    expect(html).toContain(`data-metric="cumulative-score"><td>`);
    expect(html).toContain(`<span data-low="${ci.low}" data-high="${ci.high}">`);
  });

  it('holds the header, a row per task and a table of trials per task', () => {
    expect(html).toContain('<dd data-field="suite">office</dd>');
    expect(html).toContain('<dd data-field="model">openai-compatible · qwen2.5-7b-instruct</dd>');
    expect(html).toContain('<dd data-field="budget">200,000 tokens, 40 turns, 600 s</dd>');
    expect(html).toContain('<dd data-field="started">2025-05-01T10:00:00.000Z</dd>');
    const deck = /<tr data-task="deck">(.*?)<\/tr>/.exec(html)![1]!;
    const values = [...deck.matchAll(/data-value="([^"]+)"/g)].map((m) => Number(m[1]));
    expect(values).toEqual([1, 90, 3000, 15]); // passed, mean score, tokens/trial, seconds/trial
    expect(html.match(/<section><h3>/g)).toHaveLength(2);
    expect(html).toContain('invalid: checker &lt;crashed&gt;');
    expect(html).toContain('no-overflow: text &lt;b&gt;overflows&lt;/b&gt; &amp; spills');
    expect(html).not.toContain('<th>budget</th>');
  });

  it('shows budgets per task when they vary', () => {
    const varied = reportHtml(resultsFile([trial('p', 1, 1), trial('q', 1, 1, { budget: { tokens: null, turns: 10, seconds: null } })]));
    expect(varied).toContain('<dd data-field="budget">varies by task</dd>');
    expect(varied).toContain('<th>budget</th>');
    expect(varied).toContain('<td>no token limit, 10 turns, no time limit</td>');
  });

  it('plots score, tokens and time per task as bars and pass^k as a line', () => {
    expect(html.match(/<svg /g)).toHaveLength(4);
    expect(html.match(/<\/svg>/g)).toHaveLength(4);
    expect(html).toContain('aria-label="Mean score per task (%)"');
    expect(html).toContain('aria-label="pass^k (%)"');
    expect(html.match(/<circle /g)).toHaveLength(2);
    expect(html).toContain('<path d="M');
  });

  it('escapes every text and loads nothing', () => {
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(html.toLowerCase()).not.toContain('<script');
    expect(html.toLowerCase()).not.toContain('http');
    expect(html).not.toMatch(/\b(src|href)=/);
    expect(html.match(/<table/g)!.length).toBe(html.match(/<\/table>/g)!.length);
  });

  it('compares with another run: W/L/T, Elo, win rate, and budgets that differ', () => {
    // B: deck 5/5 (100 > 90: a loss for A), EVIL all invalid (A's 30 wins). W 1, L 1, T 0: Elo 1000, win rate 50.
    const other = resultsFile([
      trial('deck', 5, 5, { budget: { ...BUDGET, tokens: 100_000 } }),
      trial(EVIL, 'invalid', 15),
      trial('extra', 1, 1),
    ]);
    const compared = reportHtml(RUN, { compareWith: other });
    expect([figure(compared, 'wins'), figure(compared, 'losses'), figure(compared, 'ties')]).toEqual([1, 1, 0]);
    expect(figure(compared, 'win-rate')).toBe(50);
    expect(figure(compared, 'elo')).toBe(1000);
    expect(compared).toContain('Budgets differ, so this is not a comparison at equal budgets: deck: tokens 200,000 against 100,000.');
    expect(compared).toContain('Left out: 0 tasks only in A, 1 only in B.');
    expect(compared.toLowerCase()).not.toContain('<script');
    expect(reportHtml(RUN, { compareWith: RUN })).not.toContain('Budgets differ');
    expect(reportHtml(RUN, { compareWith: resultsFile([trial('other', 1, 1)]) })).toContain('no task in common');
  });
});

describe('terminal table', () => {
  const lines = formatResultsTable(summarize(RUN));

  it('has fixed-width columns with the per-task figures', () => {
    const table = lines.slice(0, 4);
    expect(new Set(table.map((l) => l.length)).size).toBe(1);
    expect(lines[0]!.split(/\s{2,}/)).toEqual(['task', 'split', 'trials', 'passed', 'score %', 'tokens/trial', 's/trial']);
    expect(lines[2]!.trim().split(/\s{2,}/)).toEqual(['deck', 'dev', '2', '1', '90.0', '3,000', '15.0']);
    expect(lines[3]!.trim().split(/\s{2,}/)).toEqual([EVIL, 'dev', '2', '0 (1 invalid)', '30.0', '500', '4.0']);
  });

  it('ends with the totals and the metrics', () => {
    const rest = lines.slice(5).join('\n');
    expect(rest).toContain('total: 2 tasks, 4 trials, 1 passed, 1 invalid; 7,000 tokens (5,800 in, 1,200 out)');
    expect(rest).toMatch(/all-pass rate\s+25\.0 % {2}\(95% CI [\d.]+–[\d.]+\)/);
    expect(rest).toMatch(/cumulative score\s+45\.0 % {2}\(95% CI [\d.]+–[\d.]+\); over scored trials only 72\.0 %/);
    expect(rest).toMatch(/per-task mean\s+60\.0 %/);
    expect(rest).toContain('pass^k (%)        k=1 25.0  k=2 0.0');
    expect(rest).toContain('budget: 200,000 tokens, 40 turns, 600 s');
  });

  it('formats a comparison, with unbounded Elo and the budgets that differ', () => {
    const a = [trial('p', 1, 1), trial('q', 1, 1)];
    const b = [trial('p', 0, 1), trial('q', 0, 1, { budget: { ...BUDGET, turns: null } })];
    const text = formatComparison(compareResults(a, b), { a: 'new', b: 'old' });
    expect(text[0]).toBe('new against old over 2 common tasks: 2 wins, 0 losses, 0 ties');
    expect(text[1]).toMatch(/^win rate {2}100\.0 %/);
    expect(text[2]).toMatch(/^Elo {7}≥ 1240\.8 \(unbounded\)/); // 1000 + 400·log10(2/0.5)
    expect(text.slice(3)).toEqual(['budgets differ, so this comparison is not at equal budgets:', '  q: turns 40 against no limit']);
  });
});
