import { asToolResult, defineTool, type ResourceApi } from '@cowork/host';
import type { Parent } from '../kinds/checkpoint-kind';
import { DEFAULT_SETTINGS, roundKind, type RoundContent, type RoundSettings } from '../kinds/round-kind';
import { readDataset } from './dataset-tools';
import { readOfKind } from '../read-of-kind';

interface PlanInput {
  name: string;
  datasetId: string;
  datasetRevision?: number;
  parentCheckpointId?: string;
  settings?: Partial<RoundSettings>;
}

/**
 * Plans a round: a new `trainer.round` draft naming its parent (base, or a checkpoint whose hash
 * the tool reads, so the plan records it), the dataset at a revision (default: its current one) and
 * settings. Later edits are ordinary commits of the round's ops, with conflicts like any resource.
 */
export const planTool = defineTool<PlanInput>({
  name: 'trainer_plan_round',
  description:
    'Create a training round (a draft trainer.round): parentCheckpointId (omit to start from base), the dataset at datasetRevision (default its current revision; it must be filtered and not empty), and settings (steps, lr, batch, seed, threads). Edit it later with commit_resource and the round\'s ops (set_parent, set_dataset, set_settings, set_status).',
  inputSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', minLength: 1, maxLength: 200 },
      datasetId: { type: 'string' },
      datasetRevision: { type: 'integer', minimum: 0 },
      parentCheckpointId: { type: 'string' },
      settings: { type: 'object' },
    },
    required: ['name', 'datasetId'],
    additionalProperties: false,
  },
  permissions: [{ access: 'commit' }, { access: 'read' }],
  handler: (input, ctx) =>
    asToolResult(async () => {
      const resources = ctx.host.resources;
      const dataset = await readDataset(resources, input.datasetId);
      const parent = input.parentCheckpointId === undefined ? ({ type: 'base' } as const) : await checkpointAsParent(resources, input.parentCheckpointId);
      const content: RoundContent = {
        ...roundKind.initialContent(),
        name: input.name,
        parent,
        dataset: { id: input.datasetId, revision: input.datasetRevision ?? dataset.revision },
        settings: { ...DEFAULT_SETTINGS, ...input.settings } as RoundSettings,
      };
      const created = await resources.create({ kind: 'trainer.round', content, operator: ctx.operator, idempotencyKey: ctx.idempotencyKey });
      return { roundId: created.id, revision: created.revision, parent, dataset: content.dataset, settings: content.settings };
    }),
});

export async function checkpointAsParent(resources: ResourceApi, id: string): Promise<Parent> {
  const { content } = await readOfKind<{ hash: string }>(resources, id, 'trainer.checkpoint', 'the parent checkpoint');
  return { type: 'checkpoint', checkpointId: id, hash: content.hash };
}
