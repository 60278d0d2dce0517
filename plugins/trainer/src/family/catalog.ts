import type { ToolSpec } from '../filters/validity';

/**
 * The host tools the generated families call, with the input schemas the host's agent runtime
 * gives them (packages/host/src/agents: resource-tools.ts, main-tools.ts). The plugin API offers no
 * tool catalog, so they are mirrored here (kept in step by hand; a test commits the family's op
 * to a real host's text resource).
 */
export const FAMILY_TOOLS: readonly ToolSpec[] = [
  {
    name: 'read_resource',
    inputSchema: {
      type: 'object',
      properties: { resourceId: { type: 'string' }, sinceRevision: { type: 'integer', minimum: 0 } },
      required: ['resourceId'],
      additionalProperties: false,
    },
  },
  {
    name: 'commit_resource',
    inputSchema: {
      type: 'object',
      properties: { resourceId: { type: 'string' }, baseRevision: { type: 'integer', minimum: 0 }, op: {} },
      required: ['resourceId', 'baseRevision', 'op'],
      additionalProperties: false,
    },
  },
  {
    name: 'create_resource',
    inputSchema: { type: 'object', properties: { kind: { type: 'string' }, content: {} }, required: ['kind'], additionalProperties: false },
  },
  {
    name: 'finish',
    inputSchema: { type: 'object', properties: { summary: { type: 'string', minLength: 1 } }, required: ['summary'], additionalProperties: false },
  },
];
