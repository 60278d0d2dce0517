import { asToolResult, defineTool } from '@cowork/host';
import { FAMILIES, generate, type Family, type Split } from '../family/families';
import { writeFamilyRun } from '../family/family-run';
import { insideWorkspace } from './paths';

/** Writes generated task-family instances as a run folder the collect and filter tools read. */
export const generateTool = defineTool<{ family: Family; split: Split; count: number; seed?: number; out: string }>({
  name: 'trainer_generate',
  description:
    'Generate instances of a task family on the host\'s own tools (read_value: read a resource and answer a value; commit_line: append a line at a given baseRevision) as a run folder (results.json and records/) under out, relative to the workspace. split heldout draws every value from ranges disjoint from train.',
  inputSchema: {
    type: 'object',
    properties: {
      family: { enum: [...FAMILIES] },
      split: { enum: ['train', 'heldout'] },
      count: { type: 'integer', minimum: 1, maximum: 100000 },
      seed: { type: 'integer', minimum: 0 },
      out: { type: 'string', minLength: 1 },
    },
    required: ['family', 'split', 'count', 'out'],
    additionalProperties: false,
  },
  permissions: [],
  handler: (input, ctx) =>
    asToolResult(async () => {
      const tasks = generate(input.family, input.split, input.count, input.seed ?? 0);
      writeFamilyRun(insideWorkspace(ctx.host.workspaceDir, input.out), tasks);
      return { out: input.out, tasks: tasks.length, family: input.family, split: input.split };
    }),
});
