import type { Json, ViewBlock } from '@cowork/host';
import type { CheckpointContent } from './checkpoint-kind';
import { dash, parentText } from './view-format';

/**
 * A checkpoint as people read it in the page: what identifies the weights (hash and file), where
 * they came from (parent, round, the data at its revision and hash), steps, tokenizer and model.
 * Read-only: the kind refuses every op, so a field here could only fail.
 */
export function checkpointView(checkpoint: CheckpointContent): ViewBlock[] {
  return [
    { type: 'heading', text: `Checkpoint ${checkpoint.hash.slice(0, 12)}`, level: 1 },
    { type: 'paragraph', text: 'Immutable: a different model is a new checkpoint, made by training a round.' },
    {
      type: 'table',
      rows: [
        ['Hash', `sha256 ${checkpoint.hash}`],
        ['File', checkpoint.file],
        ['Parent', parentText(checkpoint.parent)],
        ['Round', dash(checkpoint.round)],
        ['Data', `dataset ${checkpoint.data.datasetId}@${checkpoint.data.revision}, data sha256 ${checkpoint.data.hash}`],
        ['Steps', String(checkpoint.steps)],
        ['Tokenizer', `${checkpoint.tokenizer.name}, vocabulary ${checkpoint.tokenizer.vocabSize}`],
      ],
    },
    ...modelBlocks(checkpoint.model),
  ];
}

function modelBlocks(model: { [key: string]: Json }): ViewBlock[] {
  const entries = Object.entries(model);
  if (entries.length === 0) return [];
  return [
    { type: 'heading', text: 'Model', level: 2 },
    { type: 'table', header: ['Setting', 'Value'], rows: entries.map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)]) },
  ];
}
