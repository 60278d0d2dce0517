import { CoworkError, asToolResult, defineTool, type Json, type ToolDefinition } from '@cowork/host';
import type { Scene } from './content';
import { contentKey, type SceneQueue } from './scene-queue';
import { openSession } from './session';

const KIND = 'blender.scene';
const INPUT = {
  type: 'object',
  properties: { resourceId: { type: 'string', minLength: 1, description: 'The id of a blender.scene resource.' } },
  required: ['resourceId'],
  additionalProperties: false,
} as const;

/**
 * `blender_check_support`: meshes resting on nothing, with the gap to what is below them. Without
 * an open session the check runs in a short-lived Blender, queued like exports.
 */
export const checkSupportTool = (queue: SceneQueue): ToolDefinition<{ resourceId: string }> => defineTool({
  name: 'blender_check_support',
  description:
    'Finds meshes in a Blender scene that rest on nothing (a wheel floating above the ground): for each, the gap in metres ' +
    'between its lowest point and the highest surface below it (another mesh under it, or the ground z=0) and that surface ' +
    '(restingOn: the object, or null for the ground). Gaps under 1 mm count as resting. An empty list means everything rests on something.',
  inputSchema: INPUT,
  permissions: [{ access: 'read', kind: KIND }],
  handler: (input, context) =>
    asToolResult(async () => {
      const resource = await context.host.resources.get(input.resourceId);
      requireScene(resource.kind, input.resourceId);
      const session = openSession(resource.id);
      if (session) return { resourceId: resource.id, scene: 'live Blender', findings: (await session.checkSupport()) as unknown as Json };
      const content = resource.content as Scene;
      const findings = await queue.run(resource.id, `check_support ${contentKey(content)}`, context.signal, async ({ shortLived }) => (await shortLived(content)).checkSupport());
      return { resourceId: resource.id, scene: `revision ${resource.revision}`, findings: findings as unknown as Json };
    }),
});

/** `blender_save`: saves the live scene; if Blender dies, it restarts from the last save. */
export const saveTool: ToolDefinition<{ resourceId: string }> = defineTool({
  name: 'blender_save',
  description:
    "Saves a Blender scene's live state to its .blend file. If Blender stops, it restarts from the last save and the " +
    'revisions after it are marked uncertain, so save after work worth keeping.',
  inputSchema: INPUT,
  permissions: [{ access: 'commit', kind: KIND }],
  handler: (input, context) =>
    asToolResult(async () => {
      const resource = await context.host.resources.get(input.resourceId);
      requireScene(resource.kind, input.resourceId);
      const session = openSession(resource.id);
      if (!session) {
        throw new CoworkError('external_unavailable', `the Blender of ${resource.id} is not open in this host; it opens with the next commit to it`, { resourceId: resource.id });
      }
      return { resourceId: resource.id, ...(await session.save()) };
    }),
});

function requireScene(kind: string, resourceId: string): void {
  if (kind !== KIND) throw new CoworkError('invalid_input', `${resourceId} is a ${kind} resource, not a ${KIND}`, { resourceId, kind });
}
