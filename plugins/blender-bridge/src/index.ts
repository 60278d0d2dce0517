/**
 * The Blender bridge plugin: `blender.scene`, a scene held by a long-lived Blender (background
 * mode, run as a host job) and driven over a local socket by src/bridge/bridge.py.
 */
import { definePlugin, type PluginDefinition } from '@cowork/host';
import { createSceneKind } from './kind';
import { limitsFromEnv, resolveLimits, type SceneQueueLimits } from './limits';
import { SceneQueue } from './scene-queue';
import { blenderSuite } from './suite';
import { checkSupportTool, saveTool } from './tools';

export { openSession, type BlenderSession } from './session';
export { closeHostAndStopBlender } from './stop';
export { BlenderProcess, childLauncher, socketPathFor, type SupportFinding } from './bridge/blender-process';
export { BridgeClient, BridgeCommandError, BridgeGoneError } from './bridge/client';
export { DEFAULT_LIMITS, type SceneQueueLimits } from './limits';
export type { Material, Primitive, Scene, SceneObject, Vec3 } from './content';
export type { SceneOp } from './ops';
export { blenderSuite } from './suite';

/**
 * The plugin with its own queue for Blender work on scenes (exports, checks without a session):
 * `limits` over DEFAULT_LIMITS. Hosts in one process that should share one cap share one plugin.
 */
export function blenderBridgePlugin(limits: Partial<SceneQueueLimits> = {}): PluginDefinition {
  const queue = new SceneQueue(resolveLimits(limits));
  return definePlugin({
    name: 'blender-bridge',
    version: '0.1.0',
    description: 'Blender scenes driven by ops through a long-lived Blender; outside changes become external revisions.',
    kinds: [createSceneKind(queue)],
    tools: [checkSupportTool(queue), saveTool],
    suites: [blenderSuite],
  });
}

/** The plugin hosts load: one queue per process, limits from COWORK_BLENDER_* variables (see README). */
export const plugin = blenderBridgePlugin(limitsFromEnv());
