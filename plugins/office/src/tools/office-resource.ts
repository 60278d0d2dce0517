import type { Json, ToolContext } from '@cowork/host';
import { OFFICE_SOURCES, type OfficeSource } from './sources';
import { invalidInput } from './invalid-input';

/** What both tools take: a resource and, optionally, one of its revisions (default: the newest). */
export type ResourceInput = { resourceId: string; revision?: number };

export const RESOURCE_INPUT_SCHEMA = {
  type: 'object',
  properties: {
    resourceId: { type: 'string', minLength: 1, description: 'An office.presentation or office.document resource.' },
    revision: { type: 'integer', minimum: 0, description: 'Which revision (default: the newest).' },
  },
  required: ['resourceId'],
  additionalProperties: false,
} as const;

export interface OfficeRevision {
  readonly id: string;
  readonly kind: string;
  readonly revision: number;
  readonly content: Json;
  readonly source: OfficeSource;
}

/** Reads the revision a tool works on; a resource of another kind is refused with the kinds that work. */
export async function readOfficeRevision(input: ResourceInput, context: ToolContext): Promise<OfficeRevision> {
  const resource = await context.host.resources.get(input.resourceId);
  const source = OFFICE_SOURCES[resource.kind];
  if (!source || !Object.prototype.hasOwnProperty.call(OFFICE_SOURCES, resource.kind)) {
    throw invalidInput(`resource ${resource.id} is a ${resource.kind}; this tool works on ${Object.keys(OFFICE_SOURCES).join(' and ')} resources`, {
      kind: resource.kind,
    });
  }
  const revision = input.revision ?? resource.revision;
  const content = revision === resource.revision ? resource.content : await context.host.resources.contentAt(resource.id, revision);
  return { id: resource.id, kind: resource.kind, revision, content, source };
}
