import type { ViewBlock, ViewContext } from '@cowork/host';
import type { FamilyScore, RoundContent, RoundStatus } from './round-kind';
import { SETTINGS_PROPERTIES, SETTING_NAMES, type SettingName } from './round-settings';
import { dash, parentText, pct, points } from './view-format';

const SETTING_LABELS: Readonly<Record<SettingName, string>> = { steps: 'Steps', lr: 'Learning rate (peak)', batch: 'Batch', seed: 'Seed', threads: 'Threads' };

const STATUS_TEXT: Readonly<Record<RoundStatus, string>> = {
  draft: 'Its plan (parent, dataset, settings) can still be edited; trainer_start_round fixes it and starts training',
  queued: 'Its plan is fixed and its training job is about to start',
  running: 'Its training job reports loss and throughput as it goes',
  succeeded: 'Its checkpoint is made',
  failed: 'Set it back to queued to retry (the job resumes from its last saved state)',
  cancelled: 'Set it back to draft to edit the plan',
};

/** How many of the latest metric points the table shows; the plot shows them all. */
const LATEST_POINTS = 5;

/**
 * A round as people read and edit it in the page: its status, lineage (the parent with its full
 * hash, the dataset at the revision it trains on), the settings (number fields committing
 * `set_settings` while the round is a draft, so a person edits the plan where they read it; text
 * once the plan is fixed, since the kind refuses plan edits then), the loss curve (the `loss-svg`
 * export of this revision, and the latest points as a table), held-out scores per family with their
 * intervals and the comparisons once evaluated, and the full report (the `html` export) in a frame.
 */
export function roundView(round: RoundContent, context: ViewContext): ViewBlock[] {
  return [
    { type: 'heading', text: `Training round: ${round.name}`, level: 1 },
    { type: 'paragraph', text: `Status: ${round.status}. ${STATUS_TEXT[round.status]}.` },
    { type: 'field', label: 'Round name', key: 'name', value: round.name, op: { type: 'rename' }, field: 'name', input: 'text' },
    { type: 'heading', text: 'Lineage', level: 2 },
    {
      type: 'table',
      rows: [
        ['Parent', parentText(round.parent)],
        ['Dataset', round.dataset ? `${round.dataset.id}@${round.dataset.revision}` : 'not set: a round is queued only with a dataset'],
        ['Job', dash(round.job)],
        ['Checkpoint', round.checkpoint ? `${round.checkpoint.id} (sha256 ${round.checkpoint.hash})` : 'not made yet'],
      ],
    },
    { type: 'heading', text: 'Settings', level: 2 },
    ...settingsBlocks(round),
    { type: 'heading', text: 'Training', level: 2 },
    ...trainingBlocks(round, context),
    { type: 'heading', text: 'Held-out evaluation', level: 2 },
    ...evaluationBlocks(round, context),
  ];
}

function settingsBlocks(round: RoundContent): ViewBlock[] {
  if (round.status !== 'draft') {
    return [
      { type: 'paragraph', text: `The plan is fixed once a round is queued; this one is ${round.status}.` },
      { type: 'table', header: ['Setting', 'Value'], rows: SETTING_NAMES.map((name) => [SETTING_LABELS[name], String(round.settings[name])]) },
    ];
  }
  return SETTING_NAMES.map((name): ViewBlock => {
    const range = SETTINGS_PROPERTIES[name] as { minimum?: number; exclusiveMinimum?: number; maximum?: number };
    const min = range.minimum ?? range.exclusiveMinimum;
    return {
      type: 'field', label: SETTING_LABELS[name], key: `setting ${name}`, value: round.settings[name], input: 'number',
      // The flat form of set_settings: the page puts the typed number at op[name].
      op: { type: 'set_settings' }, field: name,
      ...(min === undefined ? {} : { min }), ...(range.maximum === undefined ? {} : { max: range.maximum }),
    };
  });
}

function trainingBlocks(round: RoundContent, context: ViewContext): ViewBlock[] {
  const last = round.metrics[round.metrics.length - 1];
  if (last === undefined) return [{ type: 'paragraph', text: 'No metrics yet: they are recorded while the training job runs (trainer_sync_round).' }];
  return [
    { type: 'paragraph', text: `${round.metrics.length} point(s) recorded; step ${last.step} of ${round.settings.steps}, loss ${last.loss.toFixed(4)}.` },
    { type: 'image', url: context.exportUrl('loss-svg'), alt: `masked training loss by step, ${round.metrics.length} point(s), the last ${last.loss.toFixed(4)} at step ${last.step}` },
    {
      type: 'table',
      header: ['Step', 'Loss', 'Tokens/s'],
      rows: round.metrics.slice(-LATEST_POINTS).map((p) => [String(p.step), p.loss.toFixed(4), p.tokensPerSecond === null ? '—' : p.tokensPerSecond.toFixed(1)]),
    },
  ];
}

function evaluationBlocks(round: RoundContent, context: ViewContext): ViewBlock[] {
  const evaluation = round.evaluation;
  if (!evaluation) {
    const what = round.status === 'succeeded' ? 'score its held-out benchmark run with trainer_evaluate_round' : `it is ${round.status}; a round is evaluated once its checkpoint is made`;
    return [{ type: 'paragraph', text: `Not evaluated yet (${what}). The report comes with the evaluation.` }];
  }
  const row = (s: FamilyScore): string[] => [s.family, `${s.passed}/${s.trials}`, pct(s.rate), `${pct(s.interval.low)} – ${pct(s.interval.high)}`, s.score.toFixed(1), `${s.usedTool}/${s.trials}`, String(s.invalid)];
  const blocks: ViewBlock[] = [
    { type: 'paragraph', text: `Suite ${evaluation.suite}, held-out split, model ${evaluation.model ?? 'unknown'}, run ${evaluation.run}. All-pass: trials whose every rubric item passed; interval: 95% bootstrap over tasks.` },
    { type: 'table', header: ['Family', 'Passed', 'All-pass', '95% interval', 'Rubric score', 'Called its tool', 'Invalid'], rows: [...evaluation.families.map(row), row(evaluation.overall)] },
  ];
  if (evaluation.comparisons.length > 0) {
    blocks.push({
      type: 'table',
      header: ['Family', ...evaluation.comparisons.map((c) => `vs ${c.label} (${c.name})`)],
      rows: evaluation.families.map((f) => [f.family, ...evaluation.comparisons.map((c) => {
        const delta = c.deltas.find((d) => d.family === f.family);
        return delta === undefined ? '—' : points(delta.delta);
      })]),
    });
  }
  blocks.push(
    { type: 'heading', text: 'Report', level: 2 },
    { type: 'paragraph', text: `The full report of this revision (also written as the file ${dash(round.report)}):` },
    { type: 'frame', url: context.exportUrl('html', { inline: true }), title: `Report of round ${round.name}, revision ${context.revision}` },
  );
  return blocks;
}

