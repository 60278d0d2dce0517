/**
 * The Blender bridge plugin: `blender.scene`, a scene held by a long-lived Blender (background
 * mode, run as a host job) and driven over a local socket by src/bridge/bridge.py.
 */
import { definePlugin } from '@cowork/host';
import { sceneKind } from './kind';
import { checkSupportTool, saveTool } from './tools';

export { sceneKind } from './kind';
export { openSession, type BlenderSession } from './session';
export { closeHostAndStopBlender } from './stop';
export { BlenderProcess, childLauncher, socketPathFor, type SupportFinding } from './bridge/blender-process';
export { BridgeClient, BridgeCommandError, BridgeGoneError } from './bridge/client';
export type { Material, Primitive, Scene, SceneObject, Vec3 } from './content';
export type { SceneOp } from './ops';

export const plugin = definePlugin({
  name: 'blender-bridge',
  version: '0.1.0',
  description: 'Blender scenes driven by ops through a long-lived Blender; outside changes become external revisions.',
  kinds: [sceneKind],
  tools: [checkSupportTool, saveTool],
});
