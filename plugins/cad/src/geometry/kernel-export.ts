import { CoworkError, type ExportContext, type ExportFormat } from '@cowork/host';
import type { Part } from '../part/content';
import { KernelError, sharedKernel } from './kernel';
import type { MeshFormat, Placement } from './protocol';

export const STEP_MEDIA_TYPE = 'model/step';

const MEDIA_TYPES: Record<MeshFormat, string> = { step: STEP_MEDIA_TYPE, stl: 'model/stl', glb: 'model/gltf-binary' };

/** What a content exports as: placed parts (one for a part, each of its parts for an assembly). */
export type BodiesOf<Content> = (content: Content, context: ExportContext) => Promise<{ name: string; part: Part; placement?: Placement }[]>;

/**
 * A STEP, STL or GLB export of a content the kernel builds. A body that does not build is
 * `invalid_content` naming the revision and the feature at fault.
 */
export function kernelExport<Content>(format: MeshFormat, description: string, bodiesOf: BodiesOf<Content>): ExportFormat<Content> {
  return {
    mediaType: MEDIA_TYPES[format],
    extension: format,
    description,
    export: async (content, context) => {
      context.signal.throwIfAborted();
      const bodies = await bodiesOf(content, context);
      try {
        return await sharedKernel().exportBodies(bodies, format, `${context.resourceId}-r${context.revision}`);
      } catch (error) {
        throw brokenPart(error, context.revision);
      }
    },
  };
}

/** A kernel failure of geometry as `invalid_content` naming the revision and feature; other errors as they are. */
export function brokenPart(error: unknown, revision: number): unknown {
  if (!(error instanceof KernelError) || !error.failure.geometry) return error;
  return new CoworkError('invalid_content', `revision ${revision} of the part does not build: ${error.message}`, {
    featureId: error.failure.featureId ?? null,
    revision,
  });
}
