import { defineKind, isCoworkError, opShape, rejectOp, type CheckContentContext, type Json } from '@cowork/host';
import type { CheckpointContent, Parent } from './checkpoint-kind';
import { PARENT_SCHEMA } from './checkpoint-kind';
import type { DatasetContent } from './dataset-kind';
import { roundExports } from './round-exports';
import { SETTINGS_PROPERTIES, SETTING_NAMES, type SettingName } from './round-settings';
import { roundView } from './round-view';

export type RoundStatus = 'draft' | 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

/** Training settings. Epochs do not appear: how often data is seen is steps × batch and the dataset's multipliers. */
export interface RoundSettings {
  [key: string]: Json;
  steps: number;
  lr: number;
  batch: number;
  seed: number;
  threads: number;
}

export interface MetricPoint {
  [key: string]: Json;
  step: number;
  loss: number;
  tokensPerSecond: number | null;
}

/**
 * A `trainer.round`: one SFT round's plan and outcome. The plan (parent, dataset at a revision,
 * settings) is edited by people and agents through ops with the usual revision checks, and only
 * while the round is a draft: once queued, what it trains on is fixed. The job, metrics,
 * checkpoint and report are recorded as the round runs.
 */
export interface RoundContent {
  [key: string]: Json;
  name: string;
  parent: Parent;
  dataset: { id: string; revision: number } | null;
  settings: RoundSettings;
  status: RoundStatus;
  job: string | null;
  metrics: MetricPoint[];
  checkpoint: { id: string; hash: string } | null;
  report: string | null;
  /** Held-out scores of the round's checkpoint (trainer_evaluate_round); null until evaluated (absent in rounds made before it existed). */
  evaluation: RoundEvaluation | null;
}

/** A family's (or all families') held-out results: all-pass rate with a bootstrap interval over tasks. */
export interface FamilyScore {
  [key: string]: Json;
  family: string;
  tasks: number;
  trials: number;
  invalid: number;
  passed: number;
  /** Trials in which the family's tool was called (well formed, whatever its arguments). */
  usedTool: number;
  rate: number;
  interval: { low: number; high: number };
  score: number;
}

/** The difference from another round (its parent, a control) per family, in all-pass points. */
export interface Comparison {
  [key: string]: Json;
  label: string;
  roundId: string;
  name: string;
  deltas: { family: string; delta: number }[];
}

export interface RoundEvaluation {
  [key: string]: Json;
  run: string;
  suite: string;
  model: string | null;
  families: FamilyScore[];
  overall: FamilyScore;
  comparisons: Comparison[];
}

export type RoundOp =
  | { type: 'rename'; name: string }
  | { type: 'set_parent'; parent: Parent }
  | { type: 'set_dataset'; dataset: { id: string; revision: number } }
  | { type: 'set_settings'; settings: { [key: string]: number } }
  /** The same, one setting or more at the op's top level: the shape the page's fields commit (a field puts its value at one key). */
  | ({ type: 'set_settings' } & { [K in SettingName]?: number })
  | { type: 'set_status'; status: RoundStatus }
  | { type: 'set_job'; job: string }
  | { type: 'record_metrics'; points: MetricPoint[] }
  | { type: 'set_checkpoint'; checkpoint: { id: string; hash: string } }
  | { type: 'set_report'; report: string }
  | { type: 'record_evaluation'; evaluation: RoundEvaluation; report: string };

export const DEFAULT_SETTINGS: RoundSettings = { steps: 600, lr: 3e-3, batch: 16, seed: 0, threads: 1 };

/** The statuses a round may move to from each status. `running → queued` resumes after a crash. */
const TRANSITIONS: Readonly<Record<RoundStatus, readonly RoundStatus[]>> = {
  draft: ['queued', 'cancelled'],
  queued: ['draft', 'running', 'cancelled'],
  running: ['succeeded', 'failed', 'cancelled', 'queued'],
  succeeded: [],
  failed: ['queued'],
  cancelled: ['draft'],
};

const DATASET_REF = { type: 'object', properties: { id: { type: 'string', minLength: 1 }, revision: { type: 'integer', minimum: 0 } }, required: ['id', 'revision'], additionalProperties: false } as const;
const POINT = {
  type: 'object',
  properties: { step: { type: 'integer', minimum: 0 }, loss: { type: 'number' }, tokensPerSecond: { type: ['number', 'null'] } },
  required: ['step', 'loss', 'tokensPerSecond'],
  additionalProperties: false,
} as const;
const CHECKPOINT_REF = { type: 'object', properties: { id: { type: 'string', minLength: 1 }, hash: { type: 'string', pattern: '^[0-9a-f]{64}$' } }, required: ['id', 'hash'], additionalProperties: false } as const;
const STATUS = { enum: Object.keys(TRANSITIONS) } as const;
const SCORE = {
  type: 'object',
  properties: {
    family: { type: 'string' }, tasks: { type: 'integer', minimum: 0 }, trials: { type: 'integer', minimum: 0 }, invalid: { type: 'integer', minimum: 0 }, passed: { type: 'integer', minimum: 0 }, usedTool: { type: 'integer', minimum: 0 },
    rate: { type: 'number', minimum: 0, maximum: 1 }, interval: { type: 'object', properties: { low: { type: 'number' }, high: { type: 'number' } }, required: ['low', 'high'], additionalProperties: false },
    score: { type: 'number', minimum: 0, maximum: 100 },
  },
  required: ['family', 'tasks', 'trials', 'invalid', 'passed', 'usedTool', 'rate', 'interval', 'score'],
  additionalProperties: false,
} as const;
const EVALUATION = {
  type: 'object',
  properties: {
    run: { type: 'string', minLength: 1 }, suite: { type: 'string', minLength: 1 }, model: { type: ['string', 'null'] },
    families: { type: 'array', items: SCORE }, overall: SCORE,
    comparisons: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          label: { type: 'string', minLength: 1 }, roundId: { type: 'string', minLength: 1 }, name: { type: 'string' },
          deltas: { type: 'array', items: { type: 'object', properties: { family: { type: 'string' }, delta: { type: 'number' } }, required: ['family', 'delta'], additionalProperties: false } },
        },
        required: ['label', 'roundId', 'name', 'deltas'],
        additionalProperties: false,
      },
    },
  },
  required: ['run', 'suite', 'model', 'families', 'overall', 'comparisons'],
  additionalProperties: false,
} as const;
const PLAN_OPS = new Set(['set_parent', 'set_dataset', 'set_settings']);

export const roundKind = defineKind<RoundContent, RoundOp>({
  name: 'trainer.round',
  description: 'One SFT round: parent (base or a checkpoint), dataset at a revision, settings, status, metrics, checkpoint and report.',
  revisionSemantics: 'host',
  contentSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', minLength: 1, maxLength: 200 },
      parent: PARENT_SCHEMA,
      dataset: { oneOf: [{ type: 'null' }, DATASET_REF] },
      settings: { type: 'object', properties: SETTINGS_PROPERTIES, required: Object.keys(SETTINGS_PROPERTIES), additionalProperties: false },
      status: STATUS,
      job: { type: ['string', 'null'] },
      metrics: { type: 'array', items: POINT },
      checkpoint: { oneOf: [{ type: 'null' }, CHECKPOINT_REF] },
      report: { type: ['string', 'null'] },
      evaluation: { oneOf: [{ type: 'null' }, EVALUATION] },
    },
    required: ['name', 'parent', 'dataset', 'settings', 'status', 'job', 'metrics', 'checkpoint', 'report'],
    additionalProperties: false,
  },
  opSchema: {
    oneOf: [
      opShape('rename', { name: { type: 'string', minLength: 1, maxLength: 200 } }),
      opShape('set_parent', { parent: PARENT_SCHEMA }),
      opShape('set_dataset', { dataset: DATASET_REF }),
      opShape('set_settings', { settings: { type: 'object', properties: SETTINGS_PROPERTIES, additionalProperties: false, minProperties: 1 } }),
      // The flat shape a page field commits (its value goes at one top-level key); `type` plus one setting at least.
      { ...opShape('set_settings', SETTINGS_PROPERTIES, []), minProperties: 2 },
      opShape('set_status', { status: STATUS }),
      opShape('set_job', { job: { type: 'string', minLength: 1 } }),
      opShape('record_metrics', { points: { type: 'array', items: POINT, minItems: 1 } }),
      opShape('set_checkpoint', { checkpoint: CHECKPOINT_REF }),
      opShape('set_report', { report: { type: 'string' } }),
      opShape('record_evaluation', { evaluation: EVALUATION, report: { type: 'string', minLength: 1 } }),
    ],
  },
  validateOp(op) {
    if (op.type === 'record_metrics' && op.points.some((p, i) => i > 0 && p.step <= op.points[i - 1]!.step)) return ['metric points must come in increasing step order'];
    return [];
  },
  initialContent: () => ({ name: 'round', parent: { type: 'base' }, dataset: null, settings: { ...DEFAULT_SETTINGS }, status: 'draft', job: null, metrics: [], checkpoint: null, report: null, evaluation: null }),
  applyOp(content, op) {
    if (PLAN_OPS.has(op.type) && content.status !== 'draft') throw rejectOp(`the round is ${content.status}: its plan is fixed once queued (set its status back to draft first, if it has not run)`);
    switch (op.type) {
      case 'rename':
        return { ...content, name: op.name };
      case 'set_parent':
        return { ...content, parent: op.parent };
      case 'set_dataset':
        return { ...content, dataset: op.dataset };
      case 'set_settings':
        return { ...content, settings: { ...content.settings, ...settingsOf(op) } as RoundSettings };
      case 'set_status':
        if (!TRANSITIONS[content.status].includes(op.status)) {
          throw rejectOp(`a ${content.status} round cannot become ${op.status} (it can become: ${TRANSITIONS[content.status].join(', ') || 'nothing, it is final'})`);
        }
        if (op.status === 'queued' && content.dataset === null) throw rejectOp('a round needs a dataset before it is queued');
        return { ...content, status: op.status };
      case 'set_job':
        return { ...content, job: op.job };
      case 'record_metrics': {
        if (content.status !== 'running') throw rejectOp(`metrics are recorded while a round runs; this one is ${content.status}`);
        const last = content.metrics[content.metrics.length - 1];
        // A resumed job may report steps again: only steps past the last one recorded are new, so nothing counts twice.
        const fresh = op.points.filter((p) => last === undefined || p.step > last.step);
        return { ...content, metrics: [...content.metrics, ...fresh] };
      }
      case 'set_checkpoint':
        return { ...content, checkpoint: op.checkpoint };
      case 'set_report':
        return { ...content, report: op.report };
      case 'record_evaluation':
        if (content.status !== 'succeeded' || content.checkpoint === null) throw rejectOp(`a round is evaluated once its checkpoint is made; this one is ${content.status}`);
        return { ...content, evaluation: op.evaluation, report: op.report };
    }
  },
  /** The plan's references must resolve: a parent checkpoint that exists with the named hash, a filtered, non-empty dataset at the revision. */
  async checkContent(content, context) {
    return [...(await parentProblems(content.parent, context)), ...(await datasetProblems(content.dataset, context))];
  },
  summarize(c) {
    const parent = c.parent.type === 'base' ? 'base' : `checkpoint ${c.parent.checkpointId} (${c.parent.hash.slice(0, 12)})`;
    const last = c.metrics[c.metrics.length - 1];
    return [
      `round ${c.name}: ${c.status}, from ${parent}, dataset ${c.dataset ? `${c.dataset.id}@${c.dataset.revision}` : 'not set'}`,
      `  settings: ${c.settings.steps} steps, lr ${c.settings.lr}, batch ${c.settings.batch}, seed ${c.settings.seed}, ${c.settings.threads} thread(s)`,
      last ? `  step ${last.step}: loss ${last.loss.toFixed(4)}` : '  no metrics yet',
      c.checkpoint ? `  checkpoint ${c.checkpoint.id} (${c.checkpoint.hash.slice(0, 12)})` : '',
      c.evaluation ? `  held-out: ${c.evaluation.families.map((f) => `${f.family} ${f.passed}/${f.tasks}`).join(', ')}` : '',
    ].filter((l) => l !== '').join('\n');
  },
  view: roundView,
  exports: roundExports,
  diff(before, after) {
    const changes: string[] = [];
    for (const key of ['name', 'parent', 'dataset', 'settings', 'status', 'job', 'checkpoint', 'report', 'evaluation'] as const) {
      if (JSON.stringify(before[key] ?? null) !== JSON.stringify(after[key] ?? null)) changes.push(`${key}: ${short(before[key] ?? null)} → ${short(after[key] ?? null)}`);
    }
    if (after.metrics.length !== before.metrics.length) changes.push(`metrics: ${after.metrics.length - before.metrics.length} new point(s)`);
    return changes.join('\n') || 'no change';
  },
});

/** The settings an op changes, in either of its shapes. */
function settingsOf(op: Extract<RoundOp, { type: 'set_settings' }>): { [key: string]: number } {
  if ('settings' in op && typeof op.settings === 'object') return op.settings;
  const flat = op as { [K in SettingName]?: number };
  return Object.fromEntries(SETTING_NAMES.flatMap((name) => (flat[name] === undefined ? [] : [[name, flat[name]]])));
}

function short(value: Json): string {
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

async function kindOf(id: string, context: CheckContentContext): Promise<string | undefined> {
  try {
    return (await context.resources.get(id)).kind;
  } catch (error) {
    if (isCoworkError(error) && error.code === 'not_found') return undefined;
    throw error;
  }
}

async function parentProblems(parent: Parent, context: CheckContentContext): Promise<string[]> {
  if (parent.type === 'base') return [];
  const kind = await kindOf(parent.checkpointId, context);
  if (kind === undefined) return [`the parent checkpoint ${parent.checkpointId} does not exist`];
  if (kind !== 'trainer.checkpoint') return [`the parent ${parent.checkpointId} is a ${kind}, not a trainer.checkpoint`];
  const checkpoint = (await context.resources.get(parent.checkpointId)).content as CheckpointContent;
  return checkpoint.hash === parent.hash ? [] : [`the parent checkpoint ${parent.checkpointId} has hash ${checkpoint.hash.slice(0, 12)}, not ${parent.hash.slice(0, 12)}`];
}

async function datasetProblems(ref: RoundContent['dataset'], context: CheckContentContext): Promise<string[]> {
  if (ref === null) return [];
  const kind = await kindOf(ref.id, context);
  if (kind === undefined) return [`the dataset ${ref.id} does not exist`];
  if (kind !== 'trainer.dataset') return [`${ref.id} is a ${kind}, not a trainer.dataset`];
  let dataset: DatasetContent;
  try {
    dataset = (await context.resources.contentAt(ref.id, ref.revision)) as DatasetContent;
  } catch (error) {
    if (isCoworkError(error)) return [`the dataset ${ref.id} has no revision ${ref.revision}`];
    throw error;
  }
  if (dataset.stage !== 'filtered') return [`the dataset ${ref.id} at revision ${ref.revision} is ${dataset.stage}, not filtered: filter it before training on it`];
  if (dataset.trajectories.length === 0) return [`the dataset ${ref.id} at revision ${ref.revision} is empty`];
  return [];
}
