import { defineKind, opShape, rejectOp, type Json } from '@cowork/host';
import { datasetView } from './dataset-view';

/** A dataset's stages: nothing yet, samples collected from run records, filtered into training data. */
export type DatasetStage = 'empty' | 'collected' | 'filtered';

export type DataFileRef = { file: string; hash: string; samples: number };

/**
 * A `trainer.dataset`: the manifest of an SFT dataset. The samples live in content-addressed
 * files (data-files.ts); the content keeps their hashes, where they came from, what each filter
 * dropped and why, the sampling multipliers per group (how often a group's trajectories are drawn:
 * new data 24x, old 1x; not epochs, not steps: those are the round's) and the token-share report.
 */
export interface DatasetContent {
  [key: string]: Json;
  name: string;
  stage: DatasetStage;
  sources: Json[];
  pool: DataFileRef | null;
  filters: Json[];
  trajectories: { hash: string; source: string; agent: string; task: string; group: string; supervisedTokens: number; totalTokens: number; supervisedModelTokens: number }[];
  multipliers: { group: string; multiplier: number }[];
  tokenShare: { standard: Json; model: Json } | null;
  data: DataFileRef | null;
  heldout: { tasks: number; hash: string; threshold: number } | null;
  history: { ancestorCheckpoints: string[]; ancestorTrajectories: number } | null;
}

export type DatasetOp =
  | { type: 'rename'; name: string }
  | { type: 'collected'; pool: DataFileRef; sources: Json[] }
  | { type: 'filtered'; poolHash: string; filters: Json[]; trajectories: DatasetContent['trajectories']; tokenShare: { standard: Json; model: Json }; data: DataFileRef; heldout: NonNullable<DatasetContent['heldout']>; history: NonNullable<DatasetContent['history']> }
  | { type: 'set_multiplier'; group: string; multiplier: number };

const HASH = { type: 'string', pattern: '^[0-9a-f]{64}$' } as const;
const NAME = { type: 'string', minLength: 1, maxLength: 200 } as const;
const DATA_FILE = {
  type: 'object',
  properties: { file: { type: 'string', minLength: 1 }, hash: HASH, samples: { type: 'integer', minimum: 0 } },
  required: ['file', 'hash', 'samples'],
  additionalProperties: false,
} as const;
const TRAJECTORY = {
  type: 'object',
  properties: {
    hash: HASH, source: { type: 'string' }, agent: { type: 'string' }, task: { type: 'string' }, group: { type: 'string' },
    supervisedTokens: { type: 'integer', minimum: 0 }, totalTokens: { type: 'integer', minimum: 0 }, supervisedModelTokens: { type: 'integer', minimum: 0 },
  },
  required: ['hash', 'source', 'agent', 'task', 'group', 'supervisedTokens', 'totalTokens', 'supervisedModelTokens'],
  additionalProperties: false,
} as const;
const FILTER_REPORT = {
  type: 'object',
  properties: { filter: { type: 'string' }, input: { type: 'integer', minimum: 0 }, kept: { type: 'integer', minimum: 0 }, dropped: { type: 'array' }, byReason: { type: 'object' } },
  required: ['filter', 'input', 'kept', 'dropped', 'byReason'],
} as const;
const TOKEN_SHARE = { type: 'object', properties: { standard: { type: 'object' }, model: { type: 'object' } }, required: ['standard', 'model'] } as const;
const HELDOUT = {
  type: 'object',
  properties: { tasks: { type: 'integer', minimum: 0 }, hash: HASH, threshold: { type: 'number', exclusiveMinimum: 0, maximum: 1 } },
  required: ['tasks', 'hash', 'threshold'],
  additionalProperties: false,
} as const;
const HISTORY = {
  type: 'object',
  properties: { ancestorCheckpoints: { type: 'array', items: { type: 'string' } }, ancestorTrajectories: { type: 'integer', minimum: 0 } },
  required: ['ancestorCheckpoints', 'ancestorTrajectories'],
  additionalProperties: false,
} as const;
const MULTIPLIER = { type: 'number', minimum: 0, maximum: 1000 } as const;

export const datasetKind = defineKind<DatasetContent, DatasetOp>({
  name: 'trainer.dataset',
  description: 'An SFT dataset manifest: trajectory hashes, sources, what each filter dropped and why, sampling multipliers, token share.',
  revisionSemantics: 'host',
  contentSchema: {
    type: 'object',
    properties: {
      name: NAME,
      stage: { enum: ['empty', 'collected', 'filtered'] },
      sources: { type: 'array', items: { type: 'object' } },
      pool: { oneOf: [{ type: 'null' }, DATA_FILE] },
      filters: { type: 'array', items: FILTER_REPORT },
      trajectories: { type: 'array', items: TRAJECTORY },
      multipliers: { type: 'array', items: { type: 'object', properties: { group: NAME, multiplier: MULTIPLIER }, required: ['group', 'multiplier'], additionalProperties: false } },
      tokenShare: { oneOf: [{ type: 'null' }, TOKEN_SHARE] },
      data: { oneOf: [{ type: 'null' }, DATA_FILE] },
      heldout: { oneOf: [{ type: 'null' }, HELDOUT] },
      history: { oneOf: [{ type: 'null' }, HISTORY] },
    },
    required: ['name', 'stage', 'sources', 'pool', 'filters', 'trajectories', 'multipliers', 'tokenShare', 'data', 'heldout', 'history'],
    additionalProperties: false,
  },
  opSchema: {
    oneOf: [
      opShape('rename', { name: NAME }),
      opShape('collected', { pool: DATA_FILE, sources: { type: 'array', items: { type: 'object' } } }),
      opShape('filtered', {
        poolHash: HASH, filters: { type: 'array', items: FILTER_REPORT }, trajectories: { type: 'array', items: TRAJECTORY },
        tokenShare: TOKEN_SHARE, data: DATA_FILE, heldout: HELDOUT, history: HISTORY,
      }),
      opShape('set_multiplier', { group: NAME, multiplier: MULTIPLIER }),
    ],
  },
  validateOp(op) {
    if (op.type === 'collected' && op.pool.samples === 0) return ['a collection with no samples is an empty dataset: collect from runs that hold conversations'];
    if (op.type === 'filtered' && op.trajectories.length === 0) return ['a filtered dataset with no trajectories is empty: loosen the filters or collect more runs'];
    if (op.type === 'filtered' && op.data.samples !== op.trajectories.length) return [`the data file holds ${op.data.samples} samples but ${op.trajectories.length} trajectories are listed`];
    return [];
  },
  initialContent: () => ({
    name: 'dataset', stage: 'empty', sources: [], pool: null, filters: [], trajectories: [], multipliers: [], tokenShare: null, data: null, heldout: null, history: null,
  }),
  applyOp(content, op) {
    switch (op.type) {
      case 'rename':
        return { ...content, name: op.name };
      case 'collected':
        // A new pool makes the old filter results stale: they are cleared, to be filtered again.
        return { ...content, stage: 'collected', sources: op.sources, pool: op.pool, filters: [], trajectories: [], tokenShare: null, data: null, heldout: null, history: null };
      case 'filtered':
        if (content.pool === null) throw rejectOp('the dataset has nothing collected to filter: collect run records first');
        if (content.pool.hash !== op.poolHash) throw rejectOp(`these filter results are of pool ${op.poolHash.slice(0, 12)}, but the dataset now holds pool ${content.pool.hash.slice(0, 12)}: filter again`);
        return { ...content, stage: 'filtered', filters: op.filters, trajectories: op.trajectories, tokenShare: op.tokenShare, data: op.data, heldout: op.heldout, history: op.history };
      case 'set_multiplier': {
        const others = content.multipliers.filter((m) => m.group !== op.group);
        return { ...content, multipliers: [...others, { group: op.group, multiplier: op.multiplier }].sort((a, b) => a.group.localeCompare(b.group)) };
      }
    }
  },
  summarize(content) {
    const lines = [`dataset ${content.name}: ${content.stage}, ${content.sources.length} run record(s), ${content.pool?.samples ?? 0} collected sample(s), ${content.trajectories.length} kept`];
    for (const f of content.filters as unknown as { filter: string; input: number; kept: number; byReason: Record<string, number> }[]) {
      const reasons = Object.entries(f.byReason).map(([r, n]) => `${r} ${n}`).join(', ');
      lines.push(`  ${f.filter}: kept ${f.kept} of ${f.input}${reasons ? ` (dropped: ${reasons})` : ''}`);
    }
    if (content.multipliers.length > 0) lines.push(`  multipliers: ${content.multipliers.map((m) => `${m.group} ${m.multiplier}x`).join(', ')}`);
    const share = content.tokenShare?.standard as { top?: { count: number; percent: number }; trajectories?: number; warning?: string | null } | undefined;
    if (share?.top) lines.push(`  token share: the longest ${share.top.count} of ${share.trajectories} hold ${share.top.percent}% of supervised tokens${share.warning ? ' (WARNING)' : ''}`);
    return lines.join('\n');
  },
  diff(before, after) {
    const changes: string[] = [];
    if (before.name !== after.name) changes.push(`renamed ${before.name} → ${after.name}`);
    if (before.stage !== after.stage) changes.push(`stage ${before.stage} → ${after.stage}`);
    if (before.pool?.hash !== after.pool?.hash) changes.push(`pool ${before.pool?.samples ?? 0} → ${after.pool?.samples ?? 0} samples`);
    if (before.data?.hash !== after.data?.hash) changes.push(`kept ${before.trajectories.length} → ${after.trajectories.length} trajectories`);
    if (JSON.stringify(before.multipliers) !== JSON.stringify(after.multipliers)) changes.push(`multipliers ${after.multipliers.map((m) => `${m.group} ${m.multiplier}x`).join(', ') || 'none'}`);
    return changes.join('; ') || 'no change';
  },
  view: datasetView,
});

/** The multiplier of a group (1 when none was set). */
export function multiplierOf(content: DatasetContent, group: string): number {
  return content.multipliers.find((m) => m.group === group)?.multiplier ?? 1;
}
