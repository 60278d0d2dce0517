import { defineKind, type Json } from '@cowork/host';
import { checkpointView } from './checkpoint-view';

/** Where a model's weights start: the trainer's own initialisation, or a checkpoint (by id and hash). */
export type Parent = { type: 'base' } | { type: 'checkpoint'; checkpointId: string; hash: string };

/**
 * A `trainer.checkpoint`: a trained model's weights, immutable once created. It names its file by
 * hash, its parent (lineage), the data it was trained on (dataset at a revision, and that data's
 * hash), its steps and its tokenizer. A different model is a new checkpoint, never an edit.
 */
export interface CheckpointContent {
  [key: string]: Json;
  hash: string;
  file: string;
  parent: Parent;
  round: string | null;
  data: { datasetId: string; revision: number; hash: string };
  steps: number;
  tokenizer: { name: string; vocabSize: number };
  model: { [key: string]: Json };
}

const HASH = { type: 'string', pattern: '^[0-9a-f]{64}$' } as const;

export const PARENT_SCHEMA = {
  oneOf: [
    { type: 'object', properties: { type: { const: 'base' } }, required: ['type'], additionalProperties: false },
    { type: 'object', properties: { type: { const: 'checkpoint' }, checkpointId: { type: 'string', minLength: 1 }, hash: HASH }, required: ['type', 'checkpointId', 'hash'], additionalProperties: false },
  ],
} as const;

export const checkpointKind = defineKind<CheckpointContent, Json>({
  name: 'trainer.checkpoint',
  description: 'Trained weights, immutable: hash, parent, training data, steps, tokenizer.',
  revisionSemantics: 'host',
  contentSchema: {
    type: 'object',
    properties: {
      hash: HASH,
      file: { type: 'string', minLength: 1 },
      parent: PARENT_SCHEMA,
      round: { type: ['string', 'null'] },
      data: { type: 'object', properties: { datasetId: { type: 'string', minLength: 1 }, revision: { type: 'integer', minimum: 0 }, hash: HASH }, required: ['datasetId', 'revision', 'hash'], additionalProperties: false },
      steps: { type: 'integer', minimum: 0 },
      tokenizer: { type: 'object', properties: { name: { type: 'string', minLength: 1 }, vocabSize: { type: 'integer', minimum: 1 } }, required: ['name', 'vocabSize'], additionalProperties: false },
      model: { type: 'object' },
    },
    required: ['hash', 'file', 'parent', 'round', 'data', 'steps', 'tokenizer', 'model'],
    additionalProperties: false,
  },
  // Any object reaches validateOp, which refuses it with a sentence rather than a schema error.
  opSchema: { type: 'object' },
  validateOp: () => ['a checkpoint is immutable: train a new round to get a new checkpoint'],
  // Not a valid content (the hash is empty): a checkpoint is created only with its content.
  initialContent: () => ({
    hash: '', file: '', parent: { type: 'base' }, round: null, data: { datasetId: '', revision: 0, hash: '' }, steps: 0, tokenizer: { name: '', vocabSize: 1 }, model: {},
  }),
  applyOp: (content) => content,
  summarize: (c) =>
    `checkpoint ${c.hash.slice(0, 12)}: ${c.steps} steps from ${c.parent.type === 'base' ? 'base' : `checkpoint ${c.parent.hash.slice(0, 12)}`}, data ${c.data.hash.slice(0, 12)} (dataset ${c.data.datasetId}@${c.data.revision}), tokenizer ${c.tokenizer.name}`,
  diff: () => 'a checkpoint does not change',
  view: checkpointView,
});
