import { barChart, escapeHtml, lineChart } from '@cowork/host';
import type { CheckpointContent } from '../kinds/checkpoint-kind';
import type { DatasetContent } from '../kinds/dataset-kind';
import type { FamilyScore, MetricPoint, RoundContent, RoundEvaluation } from '../kinds/round-kind';
import type { TokenShareReport } from '../token-share';
import { parentText, pct, points } from '../kinds/view-format';

export interface RoundReportInput {
  readonly roundId: string;
  readonly round: RoundContent;
  readonly evaluation: RoundEvaluation;
  readonly dataset: { readonly id: string; readonly revision: number; readonly content: DatasetContent };
  readonly checkpoint: { readonly id: string; readonly content: CheckpointContent };
}

/** The plots' look, shared by the report page and the standalone loss-curve SVG (round-exports.ts). */
export const PLOT_CSS = `.plot text{font-size:11px;fill:#445}.plot .plot-title{font-size:13px;font-weight:600}
.plot .grid{stroke:#e6e9ee}.plot .axis{stroke:#667}.plot .line{fill:none;stroke:#2e6bd1;stroke-width:2}.plot .dot{fill:#2e6bd1}
.plot .bar{fill:#2e6bd1}.plot .bar.bad{fill:#c8423b}`;

/** The masked training loss by step as an inline SVG plot; undefined without metrics. */
export function lossCurve(metrics: readonly MetricPoint[]): string | undefined {
  if (metrics.length === 0) return undefined;
  const points = metrics.map((p) => ({ x: p.step, y: p.loss }));
  const maxLoss = Math.max(0.5, ...points.map((p) => p.y));
  return lineChart({ title: 'masked training loss by step', points, xLabel: 'step', yLabel: 'loss', yMax: Math.ceil(maxLoss * 2) / 2 });
}

function table(head: readonly string[], rows: readonly (readonly string[])[]): string {
  return `<table><thead><tr>${head.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
}

function scoreRow(s: FamilyScore): string[] {
  return [s.family, `${s.passed}/${s.trials}`, pct(s.rate), `${pct(s.interval.low)} – ${pct(s.interval.high)}`, s.score.toFixed(1), `${s.usedTool}/${s.trials}`, String(s.invalid)];
}

/** Said plainly on every report, so its scores are not read as more than they are. */
const CAPABILITIES =
  'The trainer\'s model has under a million parameters, reads its own pieces (markers, words, numbers, single characters), and trains for minutes from a random start. ' +
  'It can learn the call grammar of the tools its data used, and to copy short values (resource ids, numbers, words) from a request or a tool result into a call and an answer, values it never saw in training included. ' +
  'It cannot understand language beyond the phrasings it was trained on, plan, pick a tool its data never used, or compute a value (a new revision is copied from the result, not added). ' +
  'Its held-out scores say whether a round taught those skills on unseen values, not how a real base model would do; the README says how to run the same pipeline on one.';

/**
 * The round report as one self-contained HTML page: lineage, the data (hash, sources, filter counts,
 * multipliers, token share), the settings, the training curve, held-out scores per family with their
 * intervals, and the differences from the parent round and the control.
 */
export function renderRoundReport(input: RoundReportInput): string {
  const { round, evaluation, dataset, checkpoint } = input;
  const parent = parentText(round.parent);
  const data = dataset.content;
  const groups = new Map<string, number>();
  for (const t of data.trajectories) groups.set(t.group, (groups.get(t.group) ?? 0) + 1);
  const multiplier = (group: string) => data.multipliers.find((m) => m.group === group)?.multiplier ?? 1;
  const filters = (data.filters as unknown as { filter: string; input: number; kept: number; byReason: Record<string, number> }[]).map((f) => [
    f.filter, String(f.input), String(f.kept), Object.entries(f.byReason).map(([r, n]) => `${r} ${n}`).join(', ') || '—',
  ]);
  const shares = [data.tokenShare?.standard, data.tokenShare?.model].filter((x) => x != null) as unknown as TokenShareReport[];
  const curve = lossCurve(round.metrics) ?? '<p>No metrics were recorded.</p>';
  const bars = barChart({ title: 'held-out all-pass rate by family (%)', bars: evaluation.families.map((f) => ({ label: f.family, value: 100 * f.rate, text: `${pct(f.rate)} [${pct(f.interval.low)}, ${pct(f.interval.high)}]` })), max: 100 });
  const families = evaluation.families.map((f) => f.family);
  const comparisons = evaluation.comparisons.length === 0
    ? '<p>No other round to compare with.</p>'
    : table(['family', ...evaluation.comparisons.map((c) => `vs ${c.label} (${c.name})`)], families.map((family) => [family, ...evaluation.comparisons.map((c) => {
      const d = c.deltas.find((x) => x.family === family);
      return d === undefined ? '—' : points(d.delta);
    })]));
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Training round: ${escapeHtml(round.name)}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:60rem;padding:0 1rem;color:#1d2430}
table{border-collapse:collapse;margin:.5rem 0 1rem}th,td{border:1px solid #d5dae1;padding:.25rem .6rem;text-align:left}
code{font-size:12px}${PLOT_CSS}.warn{color:#a4330d}
</style></head><body>
<h1>Training round: ${escapeHtml(round.name)}</h1>
<p>Round <code>${escapeHtml(input.roundId)}</code>, ${escapeHtml(round.status)}. Checkpoint <code>${escapeHtml(checkpoint.id)}</code> (sha256 <code>${escapeHtml(checkpoint.content.hash)}</code>), ${checkpoint.content.steps} steps, tokenizer ${escapeHtml(checkpoint.content.tokenizer.name)}.</p>
<h2>Lineage</h2>
<p>Parent: ${escapeHtml(parent)}.</p>
<h2>Data</h2>
<p>Dataset <code>${escapeHtml(dataset.id)}</code> at revision ${dataset.revision}: ${data.trajectories.length} trajectories, data sha256 <code>${escapeHtml(data.data?.hash ?? '—')}</code>, from ${data.sources.length} run records.</p>
${table(['group', 'trajectories', 'multiplier'], [...groups].map(([g, n]) => [g, String(n), `${multiplier(g)}x`]))}
${table(['filter', 'in', 'kept', 'dropped by reason'], filters)}
${shares.map((share) => `<p>Token share (${escapeHtml(share.tokenizer)}): the longest ${share.top.count} of ${share.trajectories} trajectories hold ${share.top.percent.toFixed(1)}% of ${share.supervisedTokens} supervised tokens; ${share.trajectoriesFor50} reach 50%, ${share.trajectoriesFor80} reach 80%.${share.warning ? ` <span class="warn">${escapeHtml(share.warning)}</span>` : ''}</p>`).join('\n')}
<h2>Training</h2>
<p>${round.settings.steps} steps, batch ${round.settings.batch}, learning rate ${round.settings.lr}, seed ${round.settings.seed}, ${round.settings.threads} thread(s).</p>
${curve}
<h2>Held-out evaluation</h2>
<p>Suite <code>${escapeHtml(evaluation.suite)}</code>, held-out split, model <code>${escapeHtml(evaluation.model ?? 'unknown')}</code>, run <code>${escapeHtml(evaluation.run)}</code>. Rate: trials whose every rubric item passed (an invalid trial fails); interval: 95% percentile bootstrap over tasks; called its tool: trials in which the family's tool was called at all, whatever its arguments.</p>
${table(['family', 'passed', 'all-pass', '95% interval', 'rubric score', 'called its tool', 'invalid'], [...evaluation.families.map(scoreRow), scoreRow(evaluation.overall)])}
${bars}
<h2>Compared</h2>
${comparisons}
<h2>What this model can and cannot do</h2>
<p>${escapeHtml(CAPABILITIES)}</p>
</body></html>
`;
}
