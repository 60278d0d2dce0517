import type { SceneOp } from '../src/ops';

/** A ground plane, a 1 m body resting on it, and a wheel floating 0.2 m above the ground. */
export const CAR_OPS: SceneOp[] = [
  { type: 'add_object', name: 'Ground', primitive: { shape: 'plane', size: 10 } },
  { type: 'add_object', name: 'Body', primitive: { shape: 'cube', size: 1 }, location: [0, 0, 0.5] },
  { type: 'add_object', name: 'Wheel', primitive: { shape: 'cylinder', radius: 0.3, depth: 0.1 }, location: [1, 0.6, 0.5], rotation: [90, 0, 0] },
];
