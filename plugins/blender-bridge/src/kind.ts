import { defineKind } from '@cowork/host';
import { SCENE_SCHEMA, initialScene, type Scene } from './content';
import { diffScenes, summarizeScene } from './describe';
import { sceneView } from './view';
import { sceneExports } from './exports';
import { SCENE_OP_SCHEMA, applySceneOp, validateSceneOp, type SceneOp } from './ops';
import type { SceneQueue } from './scene-queue';
import { BlenderSession } from './session';

/**
 * `blender.scene`: a scene held by a long-lived Blender (a host job), changed by ops that the
 * bridge performs with bpy. Revisions are what Blender reports; a change made in Blender by anyone
 * else becomes an `external` revision, and a Blender that dies restarts from the last save.
 * Exports run through `queue`; Blenders start in turn with its short-lived ones (`queue.starts`).
 */
export const createSceneKind = (queue: SceneQueue) => defineKind<Scene, SceneOp>({
  name: 'blender.scene',
  description:
    'A Blender scene: objects by name (meshes from primitives, lights, cameras) with transforms (rotation in degrees), ' +
    'materials and modifiers. Edited by add_object, delete_object, set_transform, set_material, add_light, add_camera, ' +
    'set_active_camera, add_modifier, remove_modifier, rename_object and parent; changes made in Blender by others appear ' +
    'as external revisions. Exports blend, glb and a png preview. Tools: blender_check_support, blender_save.',
  revisionSemantics: 'external',
  contentSchema: SCENE_SCHEMA,
  opSchema: SCENE_OP_SCHEMA,
  initialContent: initialScene,
  validateOp: validateSceneOp,
  applyOp: applySceneOp,
  summarize: summarizeScene,
  diff: diffScenes,
  view: sceneView,
  exports: sceneExports(queue),
  external: { open: (resource, context) => BlenderSession.open(resource, context, queue.starts) },
});
