import { CoworkError, asToolResult, defineTool, type Json } from '@cowork/host';
import { sharedKernel, type Evaluation } from '../geometry/kernel';
import type { Assembly } from '../assembly/content';
import { resolveParts } from '../assembly/resolve';
import type { Part } from '../part/content';

type Input = { resourceId: string; revision?: number };

/**
 * The figures an agent checks its work against, computed by the kernel for one revision: for a
 * part its validity, solid count, volume and bounding box (or the feature that fails to build);
 * for an assembly the same per part plus the volume each overlapping pair of parts shares.
 */
export const cadCheckTool = defineTool<Input>({
  name: 'cad_check',
  description:
    'Checks a cad.part or cad.assembly revision with OpenCascade: shape validity, solid count, volume (mm³), bounding box (mm), ' +
    'and for an assembly the interference volume of every overlapping pair of parts. A part that does not build answers ok: false with the feature at fault.',
  inputSchema: {
    type: 'object',
    properties: { resourceId: { type: 'string' }, revision: { type: 'integer', minimum: 0 } },
    required: ['resourceId'],
    additionalProperties: false,
  },
  permissions: [
    { access: 'read', kind: 'cad.part' },
    { access: 'read', kind: 'cad.assembly' },
  ],
  handler: (input, context) =>
    asToolResult(async () => {
      const { resources } = context.host;
      const resource = await resources.get(input.resourceId);
      const revision = input.revision ?? resource.revision;
      const content = revision === resource.revision ? resource.content : await resources.contentAt(resource.id, revision);
      const kernel = sharedKernel();
      const head = { resourceId: resource.id, kind: resource.kind, revision };
      if (resource.kind === 'cad.part') return { ...head, ...(await kernel.evaluate(content as Part)) } as Json;
      if (resource.kind !== 'cad.assembly') throw new CoworkError('invalid_input', `resource ${resource.id} is a ${resource.kind}; cad_check reads cad.part and cad.assembly`);
      const resolved = await resolveParts(content as Assembly, resources);
      const parts: ({ id: string } & Evaluation)[] = [];
      for (const p of resolved) parts.push({ id: p.id, ...(await kernel.evaluate(p.part)) });
      const ok = parts.every((p) => p.ok);
      const interferences = ok ? await kernel.interferences(resolved.map((p) => ({ name: p.id, part: p.part, placement: p.placement }))) : [];
      return { ...head, ok, parts, interferences } as unknown as Json;
    }),
});
