import type { ViewBlock } from '@cowork/host';
import type { FilterReport } from '../filters/report';
import type { TokenShareReport } from '../token-share';
import type { DatasetContent, DatasetStage } from './dataset-kind';
import { dash } from './view-format';

const STAGE_TEXT: Readonly<Record<DatasetStage, string>> = {
  empty: 'Collect run records into it (trainer_collect)',
  collected: 'Its pool holds the run records\' samples; filter it (trainer_filter) before training on it',
  filtered: 'Its kept trajectories are training data',
};

/** How many single drops the page lists (every one is counted by reason above it; trainer_report gives all). */
const LISTED_DROPS = 50;

/**
 * A dataset as people read it in the page: its stage, where its samples came from, what each filter
 * kept and dropped by reason (with the first drops' details), the sampling groups with their
 * multipliers as number fields (each commits `set_multiplier`, which the kind allows at any stage:
 * a weight is read when a round starts), and the token share in both tokenizers with its warning.
 */
export function datasetView(dataset: DatasetContent): ViewBlock[] {
  const filters = dataset.filters as unknown as FilterReport[];
  return [
    { type: 'heading', text: `Dataset: ${dataset.name}`, level: 1 },
    { type: 'paragraph', text: `Stage: ${dataset.stage}. ${STAGE_TEXT[dataset.stage]}.` },
    {
      type: 'table',
      rows: [
        ['Sources', `${dataset.sources.length} run record(s)`],
        ['Collected', dataset.pool ? `${dataset.pool.samples} sample(s), pool sha256 ${dataset.pool.hash}` : 'nothing yet'],
        ['Kept', dataset.data ? `${dataset.trajectories.length} trajectories, data sha256 ${dataset.data.hash}` : 'not filtered yet'],
        ['Held-out tasks', dataset.heldout ? `${dataset.heldout.tasks} (sha256 ${dataset.heldout.hash}), similarity threshold ${dataset.heldout.threshold}` : '—'],
        ['Ancestors', dataset.history ? `${dataset.history.ancestorCheckpoints.length} checkpoint(s), ${dataset.history.ancestorTrajectories} trajectories they trained on` : '—'],
      ],
    },
    { type: 'heading', text: 'Filters', level: 2 },
    ...filterBlocks(filters),
    { type: 'heading', text: 'Groups and multipliers', level: 2 },
    { type: 'paragraph', text: 'A multiplier is how often a group\'s trajectories are drawn relative to others (new data 24x, old 1x), not epochs: how long a round trains is its steps and batch.' },
    ...groupBlocks(dataset),
    { type: 'heading', text: 'Token share', level: 2 },
    ...tokenShareBlocks(dataset),
  ];
}

function filterBlocks(filters: readonly FilterReport[]): ViewBlock[] {
  if (filters.length === 0) return [{ type: 'paragraph', text: 'Not filtered yet.' }];
  const drops = filters.flatMap((f) => f.dropped.map((d) => [f.filter, d.reason, d.detail, d.source]));
  return [
    {
      type: 'table',
      header: ['Filter', 'In', 'Kept', 'Dropped', 'Dropped by reason'],
      rows: filters.map((f) => [f.filter, String(f.input), String(f.kept), String(f.input - f.kept), dash(Object.entries(f.byReason).map(([reason, n]) => `${reason} ${n}`).join(', '))]),
    },
    ...(drops.length === 0
      ? []
      : [
          { type: 'paragraph', text: drops.length > LISTED_DROPS ? `The first ${LISTED_DROPS} of ${drops.length} drops (trainer_report lists them all):` : 'Each drop:' } as const,
          { type: 'table', header: ['Filter', 'Reason', 'Detail', 'Source'], rows: drops.slice(0, LISTED_DROPS) } as const,
        ]),
  ];
}

/** Every group the dataset knows (from its sources, kept trajectories or multipliers), each with a field. */
function groupBlocks(dataset: DatasetContent): ViewBlock[] {
  const kept = new Map<string, number>();
  for (const t of dataset.trajectories) kept.set(t.group, (kept.get(t.group) ?? 0) + 1);
  const sources = dataset.sources as { group?: unknown }[];
  const chosen = new Map(dataset.multipliers.map((m) => [m.group, m.multiplier]));
  const groups = [...new Set([...sources.flatMap((s) => (typeof s.group === 'string' ? [s.group] : [])), ...kept.keys(), ...chosen.keys()])].sort();
  if (groups.length === 0) return [{ type: 'paragraph', text: 'No groups yet: a group is named when runs are collected.' }];
  return groups.flatMap((group): ViewBlock[] => [
    {
      type: 'field', label: `Multiplier of group ${group}`, key: `multiplier ${group}`, value: chosen.get(group) ?? 1, input: 'number', min: 0, max: 1000, unit: 'x',
      op: { type: 'set_multiplier', group }, field: 'multiplier',
    },
    { type: 'paragraph', text: `Group ${group}: ${kept.get(group) ?? 0} kept trajectories${chosen.has(group) ? '' : ' (multiplier not set: 1x)'}.` },
  ]);
}

function tokenShareBlocks(dataset: DatasetContent): ViewBlock[] {
  if (!dataset.tokenShare) return [{ type: 'paragraph', text: 'Computed when the dataset is filtered.' }];
  const reports = [dataset.tokenShare.standard, dataset.tokenShare.model] as unknown as TokenShareReport[];
  return [
    {
      type: 'table',
      header: ['Tokenizer', 'Supervised tokens', 'Longest trajectories', 'Their share', 'Reach 50%', 'Reach 80%'],
      rows: reports.map((r) => [r.tokenizer, String(r.supervisedTokens), `${r.top.count} of ${r.trajectories}`, `${r.top.percent}%`, String(r.trajectoriesFor50), String(r.trajectoriesFor80)]),
    },
    ...reports.flatMap((r): ViewBlock[] => (r.warning ? [{ type: 'paragraph', text: `Warning (${r.tokenizer}): ${r.warning}.` }] : [])),
    ...(reports.some((r) => r.warning) ? [] : [{ type: 'paragraph', text: `No warning: the longest trajectories hold at most ${Math.round(100 * (reports[0]?.warnShare ?? 0))}% of the supervised tokens.` } as const]),
  ];
}
