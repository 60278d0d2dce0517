import { definePlugin, type ResourceKind, type ToolDefinition } from '@cowork/host';
import { checkpointKind } from './kinds/checkpoint-kind';
import { datasetKind } from './kinds/dataset-kind';
import { roundKind } from './kinds/round-kind';
import { collectTool, filterTool, reportTool } from './tools/dataset-tools';
import { generateTool } from './tools/generate-tool';
import { planTool } from './tools/plan-tool';
import { evaluateRoundTool, prepareRoundTool, serveCheckpointTool, startRoundTool, syncRoundTool } from './tools/round-tools';
import { familySuite } from './suite';

/**
 * The trainer plugin (issue 15): SFT datasets built from run records with filters that report what
 * they dropped, training rounds and checkpoints as resources with views in the page, the task
 * families as a benchmark suite, a training job (python/train.py) and a serving job
 * (python/serve.py) the agent starts, and the held-out evaluation of a round with its report
 * (a file, and the round's `html` export). See README.md.
 */
export const plugin = definePlugin({
  name: 'trainer',
  version: '0.1.0',
  description: 'Post-training: SFT datasets from run records (validity, rubric, history and BM25 filters, token share), rounds and checkpoints.',
  kinds: [datasetKind, roundKind, checkpointKind] as unknown as ResourceKind[],
  suites: [familySuite],
  tools: [collectTool, filterTool, reportTool, generateTool, planTool, prepareRoundTool, startRoundTool, syncRoundTool, serveCheckpointTool, evaluateRoundTool] as unknown as ToolDefinition[],
});

export { datasetKind, roundKind, checkpointKind };
export { collect, filterSamples } from './dataset-builder';
export { Bm25, tokenize } from './bm25';
export { tokenShare } from './token-share';
export { generate, RANGES, FAMILIES, FAMILY_TOOL, type Family, type FamilyTask } from './family/families';
export { FAMILY_TOOLS } from './family/catalog';
export { renderSample } from './chat-template';
export { PYTHON, trainScript, serveScript, threadEnv } from './training/script';
export { familySuite, familyInstances, familySuiteTask, familyOfTask, writeFamilyScripts, FAMILY_SUITE } from './suite';
