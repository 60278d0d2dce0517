import { CoworkError, asToolResult, defineTool, type Json } from '@cowork/host';
import { sharedKernel } from '../geometry/kernel';
import type { Part } from '../part/content';
import { PART_OP_SCHEMA, applyPartOp, validatePartOp, type PartOp } from '../part/ops';

type Input = { resourceId: string; baseRevision: number; op: PartOp };

/**
 * The way an agent edits a part: the op is applied to the base revision and built by the kernel
 * first, and only a part that still builds is committed. A fillet too large for its edges or a cut
 * that leaves nothing comes back as an error naming the feature (`featureId`), and nothing is
 * written. A plain commit is refused too (the kind's `checkContent`), but only with the message; this
 * tool also answers the measures of the part it committed.
 */
export const cadEditTool = defineTool<Input>({
  name: 'cad_edit',
  description:
    'Commits one op to a cad.part after checking that the part still builds (OpenCascade). Answers the new revision and the ' +
    "part's measures, or an error naming the feature at fault with nothing committed; a stale baseRevision gets revision_conflict " +
    'and the op is kept as a candidate.',
  inputSchema: {
    type: 'object',
    properties: { resourceId: { type: 'string' }, baseRevision: { type: 'integer', minimum: 0 }, op: PART_OP_SCHEMA },
    required: ['resourceId', 'baseRevision', 'op'],
    additionalProperties: false,
  },
  permissions: [{ access: 'commit', kind: 'cad.part' }],
  handler: (input, context) =>
    asToolResult(async () => {
      const { resources } = context.host;
      const resource = await resources.get(input.resourceId);
      if (resource.kind !== 'cad.part') throw new CoworkError('invalid_input', `resource ${resource.id} is a ${resource.kind}, not a cad.part`);
      const problems = validatePartOp(input.op);
      if (problems.length > 0) throw new CoworkError('invalid_op', problems.join('; '), { problems });
      const base = input.baseRevision === resource.revision ? resource.content : await resources.contentAt(resource.id, input.baseRevision);
      const evaluation = await sharedKernel().evaluate(applyPartOp(base as Part, input.op));
      if (!evaluation.ok) {
        throw new CoworkError('invalid_op', `the op would leave a part that does not build, so nothing was committed: ${evaluation.message}`, {
          featureId: evaluation.featureId ?? null,
          problems: [evaluation.message],
        });
      }
      const committed = await resources.commit(resource.id, {
        baseRevision: input.baseRevision,
        op: input.op,
        operator: context.operator,
        ...(context.idempotencyKey ? { idempotencyKey: context.idempotencyKey } : {}),
      });
      const { ok: _ok, ...measures } = evaluation;
      return { ...committed, measures } as unknown as Json;
    }),
});
