import { asToolResult, defineTool, type Json, type ResourceApi, type ToolContext } from '@cowork/host';
import { collect, filterSamples } from '../dataset-builder';
import { readSamples, writeSamples } from '../data-files';
import { trainerError } from '../errors';
import { FAMILY_TOOLS } from '../family/catalog';
import type { ToolSpec } from '../filters/validity';
import type { HeldoutTask } from '../filters/similarity';
import { datasetKind, type DatasetContent, type DatasetOp } from '../kinds/dataset-kind';
import type { Parent } from '../kinds/checkpoint-kind';
import { ancestry } from '../lineage';
import { loadRuns, type LoadedRun } from '../run-record';
import { loadHeldout } from './heldout';
import { insideWorkspace } from './paths';
import { checkpointAsParent } from './plan-tool';
import { readOfKind } from '../read-of-kind';

const PATHS = { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1 } as const;
const TOOL_SPECS = {
  type: 'array',
  items: { type: 'object', properties: { name: { type: 'string' }, inputSchema: { type: 'object' } }, required: ['name', 'inputSchema'] },
} as const;

/** Reads a dataset and checks its kind. */
export async function readDataset(resources: ResourceApi, id: string): Promise<{ revision: number; content: DatasetContent }> {
  return readOfKind<DatasetContent>(resources, id, 'trainer.dataset', 'the dataset');
}

async function commitDataset(ctx: ToolContext, id: string, baseRevision: number, op: DatasetOp): Promise<number> {
  const result = await ctx.host.resources.commit(id, { baseRevision, op, operator: ctx.operator, idempotencyKey: ctx.idempotencyKey });
  return result.revision;
}

interface CollectInput {
  datasetId?: string;
  name?: string;
  runs: string[];
  group?: string;
  groups?: Record<string, string>;
  baseRevision?: number;
}

/** Collects run records into a dataset's pool of samples (a new dataset when none is named). */
export const collectTool = defineTool<CollectInput>({
  name: 'trainer_collect',
  description:
    'Collect run records (benchmark run folders, records folders or record files, relative to the workspace) into a trainer.dataset as chat samples, one per agent conversation. Creates the dataset when datasetId is omitted. Every record is checked first: a file of another format refuses the whole collection. group names the sampling group (default "new") whose multiplier applies.',
  inputSchema: {
    type: 'object',
    properties: {
      datasetId: { type: 'string' },
      name: { type: 'string', minLength: 1 },
      runs: PATHS,
      group: { type: 'string', minLength: 1, description: 'The sampling group of every run (default new).' },
      groups: { type: 'object', additionalProperties: { type: 'string', minLength: 1 }, description: 'A group per path of runs (new data and old data in one collection); a path not named takes group.' },
      baseRevision: { type: 'integer', minimum: 0, description: 'The revision of the dataset you read; defaults to its current one.' },
    },
    required: ['runs'],
    additionalProperties: false,
  },
  permissions: [{ access: 'commit' }, { access: 'read' }],
  handler: (input, ctx) =>
    asToolResult(async () => {
      const workspace = ctx.host.workspaceDir;
      const unknown = Object.keys(input.groups ?? {}).filter((path) => !input.runs.includes(path));
      if (unknown.length > 0) throw trainerError('unreadable_input', `groups names ${unknown.join(', ')}, which runs does not list`, { paths: unknown });
      const groupOf = new Map<LoadedRun, string>();
      for (const path of input.runs) {
        for (const run of loadRuns([insideWorkspace(workspace, path)], workspace)) groupOf.set(run, input.groups?.[path] ?? input.group ?? 'new');
      }
      const runs = [...groupOf.keys()];
      const collection = collect(runs, (run) => groupOf.get(run)!);
      const pool = writeSamples(workspace, 'pools', collection.samples);
      const op: DatasetOp = { type: 'collected', pool: { ...pool }, sources: collection.sources as unknown as Json[] };
      let id = input.datasetId;
      let revision: number;
      if (id === undefined) {
        // One step: a new dataset is created holding its collection, never empty and then filled.
        const content = datasetKind.applyOp({ ...emptyDataset(), name: input.name ?? 'dataset' }, op);
        const created = await ctx.host.resources.create({ kind: 'trainer.dataset', content, operator: ctx.operator, idempotencyKey: ctx.idempotencyKey });
        id = created.id;
        revision = created.revision;
      } else {
        revision = await commitDataset(ctx, id, input.baseRevision ?? (await readDataset(ctx.host.resources, id)).revision, op);
      }
      return { datasetId: id, revision, runs: runs.length, samples: pool.samples, pool: pool.hash };
    }),
});

interface FilterInput {
  datasetId: string;
  baseRevision?: number;
  heldout?: string[];
  heldoutTasks?: HeldoutTask[];
  tools?: ToolSpec[];
  parentCheckpointId?: string;
  threshold?: number;
  warnShare?: number;
}

/** Filters a dataset's pool into training data. */
export const filterTool = defineTool<FilterInput>({
  name: 'trainer_filter',
  description:
    'Filter a dataset\'s collected samples into training data: validity (calls parse, tools exist, arguments match their schemas, ends on an assistant turn), failed runs by rubric (and held-out trials), history (trajectories any ancestor of parentCheckpointId trained on, and repeats) and BM25 similarity to every held-out task (drop at >= threshold, default 0.8). Reports what each filter dropped and why, and the token share. tools is the catalog calls are checked against (default: the host tools of the trainer\'s task families). Refuses, writing nothing, when nothing is left.',
  inputSchema: {
    type: 'object',
    properties: {
      datasetId: { type: 'string' },
      baseRevision: { type: 'integer', minimum: 0 },
      heldout: { ...PATHS, description: 'Suite folders (*.task.json) or run folders whose held-out tasks must not be trained on.' },
      heldoutTasks: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, request: { type: 'string' } }, required: ['id', 'request'], additionalProperties: false } },
      tools: TOOL_SPECS,
      parentCheckpointId: { type: 'string', description: 'The checkpoint the round will continue from: what it and its ancestors trained on is dropped.' },
      threshold: { type: 'number', exclusiveMinimum: 0, maximum: 1 },
      warnShare: { type: 'number', exclusiveMinimum: 0, maximum: 1 },
    },
    required: ['datasetId'],
    additionalProperties: false,
  },
  permissions: [{ access: 'commit' }, { access: 'read' }],
  handler: (input, ctx) =>
    asToolResult(async () => {
      const workspace = ctx.host.workspaceDir;
      const dataset = await readDataset(ctx.host.resources, input.datasetId);
      if (dataset.content.pool === null) throw trainerError('not_collected', `the dataset ${input.datasetId} has nothing collected: run trainer_collect first`, { resourceId: input.datasetId });
      const heldout = [...(input.heldoutTasks ?? []), ...loadHeldout((input.heldout ?? []).map((p) => insideWorkspace(workspace, p)), workspace)];
      const parent: Parent = input.parentCheckpointId === undefined ? { type: 'base' } : await checkpointAsParent(ctx.host.resources, input.parentCheckpointId);
      const ancestors = await ancestry(parent, ctx.host.resources);
      const result = filterSamples(readSamples(workspace, dataset.content.pool), {
        tools: input.tools ?? FAMILY_TOOLS,
        heldout,
        ancestorHashes: ancestors.hashes,
        threshold: input.threshold,
        tokenShare: input.warnShare === undefined ? undefined : { warnShare: input.warnShare },
      });
      const data = writeSamples(workspace, 'datasets', result.kept);
      const revision = await commitDataset(ctx, input.datasetId, input.baseRevision ?? dataset.revision, {
        type: 'filtered',
        poolHash: dataset.content.pool.hash,
        filters: result.filters as unknown as Json[],
        trajectories: result.trajectories.map((t) => ({ ...t })),
        tokenShare: result.tokenShare as unknown as { standard: Json; model: Json },
        data: { ...data },
        heldout: { ...result.heldout },
        history: { ancestorCheckpoints: ancestors.checkpoints, ancestorTrajectories: ancestors.hashes.size },
      });
      return {
        datasetId: input.datasetId,
        revision,
        kept: result.kept.length,
        filters: result.filters.map((f) => ({ filter: f.filter, input: f.input, kept: f.kept, byReason: f.byReason as Json })),
        tokenShare: result.tokenShare.standard as unknown as Json,
      };
    }),
});

/** Reports a dataset: its stage, what each filter dropped and why, multipliers and the token share. */
export const reportTool = defineTool<{ datasetId: string; revision?: number; dropped?: boolean }>({
  name: 'trainer_report',
  description: 'Report on a dataset (at a revision, default the current one): sources, filter counts with reasons (dropped: true lists each dropped trajectory), multipliers, and the token-share report with its warning.',
  inputSchema: {
    type: 'object',
    properties: { datasetId: { type: 'string' }, revision: { type: 'integer', minimum: 0 }, dropped: { type: 'boolean' } },
    required: ['datasetId'],
    additionalProperties: false,
  },
  permissions: [{ access: 'read' }],
  handler: (input, ctx) =>
    asToolResult(async () => {
      const current = await readDataset(ctx.host.resources, input.datasetId);
      const revision = input.revision ?? current.revision;
      const content = (input.revision === undefined ? current.content : await ctx.host.resources.contentAt(input.datasetId, revision)) as DatasetContent;
      const filters = (content.filters as unknown as { filter: string; input: number; kept: number; byReason: Json; dropped: Json[] }[]).map((f) => ({
        filter: f.filter, input: f.input, kept: f.kept, byReason: f.byReason, ...(input.dropped ? { dropped: f.dropped } : {}),
      }));
      const share = content.tokenShare as { standard: { warning: string | null } ; model: { warning: string | null } } | null;
      return {
        datasetId: input.datasetId,
        revision,
        name: content.name,
        stage: content.stage,
        sources: content.sources.length,
        collected: content.pool?.samples ?? 0,
        kept: content.trajectories.length,
        filters,
        multipliers: content.multipliers,
        tokenShare: content.tokenShare,
        warnings: [share?.standard.warning, share?.model.warning].filter((w): w is string => typeof w === 'string'),
        data: content.data,
      } as unknown as Json;
    }),
});

export function emptyDataset(): DatasetContent {
  return { name: 'dataset', stage: 'empty', sources: [], pool: null, filters: [], trajectories: [], multipliers: [], tokenShare: null, data: null, heldout: null, history: null };
}
