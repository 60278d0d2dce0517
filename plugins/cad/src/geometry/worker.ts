import { parentPort, workerData } from 'node:worker_threads';
import { makeCompound, measureVolume, type Shape3D } from 'replicad';
import { placementProblems } from '../assembly/checks';
import type { Part } from '../part/content';
import { AXES, GeometryError, buildPart } from './build';
import { writeGlb } from './glb';
import { measure } from './measure';
import { kernelMessage, loadOcct } from './occt';
import type { Body, Interference, KernelFailure, KernelReply, KernelRequest, KernelValue, MeshFormat, Placement, WorkerData, WorkerMessage } from './protocol';
import { readStep, writeStep } from './step';

/**
 * The CAD worker: one OpenCascade instance for the whole process, off the host's event loop. It
 * says when OpenCascade has loaded, then answers one request at a time (the host sends the next
 * only after a reply, and replaces this worker if one takes too long), and keeps the last few
 * shapes it built (they live in WASM memory and are released when they fall out).
 */
const KEPT_SHAPES = 8;
const shapes = new Map<string, Shape3D>();
const { limits } = workerData as WorkerData;
const post = (message: WorkerMessage, transfer: ArrayBuffer[] = []): void => parentPort!.postMessage(message, transfer);
const ready = loadOcct();
ready.then(
  () => post({ type: 'loaded' }),
  (error: unknown) => post({ type: 'load_failed', message: error instanceof Error ? error.message : String(error) }),
);

parentPort!.on('message', (message: { id: number; request: KernelRequest }) => {
  void ready
    .then(() => handle(message.request))
    .then(
      (value): KernelReply => ({ id: message.id, ok: true, value }),
      (error: unknown): KernelReply => ({ id: message.id, ok: false, error: failure(error) }),
    )
    .then((reply) => post({ type: 'reply', reply }, reply.ok && reply.value instanceof Uint8Array ? [reply.value.buffer as ArrayBuffer] : []));
});

async function handle(request: KernelRequest): Promise<KernelValue> {
  switch (request.type) {
    case 'ready':
      return null;
    case 'evaluate':
      return measure(shapeOf(request.key, request.part));
    case 'export': {
      const [only] = request.bodies;
      if (request.bodies.length === 1 && only && !only.placement) return exportShape(shapeOf(only.key, only.part), request.format, request.name);
      const placed = request.bodies.map(placedBody);
      const compound = makeCompound(placed).asShape3D();
      try {
        return await exportShape(compound, request.format, request.name);
      } finally {
        for (const shape of [compound, ...placed]) shape.delete();
      }
    }
    case 'read_step': {
      const shape = readStep(request.data, (message) => {
        throw new GeometryError(undefined, message);
      });
      try {
        return measure(shape);
      } finally {
        shape.delete();
      }
    }
    case 'interference':
      return interferences(request.bodies.map((body) => ({ name: body.name, shape: placedBody(body) })));
  }
}

/** The shape of a part, built once per content and kept while it is among the recent ones. */
function shapeOf(key: string, part: Part): Shape3D {
  const kept = shapes.get(key);
  if (kept) {
    shapes.delete(key);
    shapes.set(key, kept);
    return kept;
  }
  const shape = buildPart(part, limits);
  shapes.set(key, shape);
  for (const [oldKey, old] of shapes) {
    if (shapes.size <= KEPT_SHAPES) break;
    shapes.delete(oldKey);
    old.delete();
  }
  return shape;
}

async function exportShape(shape: Shape3D, format: MeshFormat, name: string): Promise<Uint8Array> {
  if (format === 'step') return writeStep(shape);
  const [min, max] = shape.boundingBox.bounds;
  const diagonal = Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]);
  const tolerance = Math.max(diagonal * 1e-3, 0.01);
  if (format === 'stl') return new Uint8Array(await shape.blobSTL({ binary: true, tolerance, angularTolerance: 0.2 }).arrayBuffer());
  const mesh = shape.mesh({ tolerance, angularTolerance: 0.2 });
  return writeGlb({ positions: Float32Array.from(mesh.vertices), normals: Float32Array.from(mesh.normals), indices: Uint32Array.from(mesh.triangles) }, name);
}

/** A body's shape where its placement puts it: a moved copy (the kept shape stays as it is). */
function placedBody(body: Body): Shape3D {
  // A revision written before placements were checked must not reach OCCT with a NaN or a far-off position.
  const problems = body.placement ? placementProblems(body.placement) : [];
  if (problems.length > 0) throw new GeometryError(undefined, `part [${body.name}]: ${problems.join('; ')}`);
  let copy = shapeOf(body.key, body.part).clone();
  const placement: Placement = body.placement ?? { translate: [0, 0, 0] };
  if (placement.rotate) copy = copy.rotate(placement.rotate.angle, [0, 0, 0], AXES[placement.rotate.axis]);
  return copy.translate(placement.translate);
}

/** The shared volume of every overlapping pair; touching faces share no volume and do not count. */
function interferences(bodies: { name: string; shape: Shape3D }[]): Interference[] {
  const found: Interference[] = [];
  try {
    for (let i = 0; i < bodies.length; i++) {
      for (let j = i + 1; j < bodies.length; j++) {
        const [a, b] = [bodies[i]!, bodies[j]!];
        const common = a.shape.intersect(b.shape);
        const volume = measureVolume(common);
        common.delete();
        if (volume > 1e-6) found.push({ a: a.name, b: b.name, volume });
      }
    }
    return found;
  } finally {
    for (const body of bodies) body.shape.delete();
  }
}

function failure(error: unknown): KernelFailure {
  if (error instanceof GeometryError) return { geometry: true, ...(error.featureId ? { featureId: error.featureId } : {}), message: error.message };
  return { geometry: false, message: kernelMessage(error) };
}
