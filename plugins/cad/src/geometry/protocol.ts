import type { Part } from '../part/content';
import type { Limits } from '../part/limits';
import type { Measures } from './measure';

/**
 * Messages between the host's thread and the CAD worker. A part travels with `key`, the hash of
 * its JSON, so that the worker can keep the shapes it built and skip rebuilding them.
 */
export type MeshFormat = 'step' | 'stl' | 'glb';

/** A part placed in an assembly: rotated (degrees) about an axis through the origin, then translated. */
export type Placement = { translate: [number, number, number]; rotate?: { axis: 'x' | 'y' | 'z'; angle: number } };

/** A part as the worker receives it, with its cache key, and where it sits when it is in an assembly. */
export type Body = { name: string; key: string; part: Part; placement?: Placement };

export type KernelRequest =
  | { type: 'ready' }
  | { type: 'evaluate'; key: string; part: Part }
  | { type: 'export'; bodies: Body[]; format: MeshFormat; name: string }
  | { type: 'read_step'; data: Uint8Array }
  | { type: 'interference'; bodies: Body[] };

/** A pair of bodies that overlap, with the volume they share (mm³). */
export type Interference = { a: string; b: string; volume: number };

export type KernelValue = Measures | Uint8Array | Interference[] | null;

export type KernelReply =
  | { id: number; ok: true; value: KernelValue }
  | { id: number; ok: false; error: KernelFailure };

/** What the worker posts: `loaded` once OpenCascade is ready (or `load_failed`, why not), then one `reply` per request. */
export type WorkerMessage = { type: 'loaded' } | { type: 'load_failed'; message: string } | { type: 'reply'; reply: KernelReply };

/** What a worker is started with: the ranges it checks every part against before building it. */
export type WorkerData = { limits: Limits };

/** Why a request failed: `geometry` when the part itself is at fault (and which feature), else the kernel. */
export type KernelFailure = { geometry: boolean; featureId?: string; message: string };
