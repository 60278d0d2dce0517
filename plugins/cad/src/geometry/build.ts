import { EdgeFinder, draw, drawCircle, drawRectangle, makeBox, makeCylinder, makeSphere, measureVolume, type Drawing, type Shape3D } from 'replicad';
import type { Axis, EdgeSelector, Feature, Part, Profile, Sketch } from '../part/content';
import { evaluateNum, type Num } from '../part/expression';
import { LIMITS, type Limits } from '../part/limits';
import { partProblems } from '../part/structure';
import { kernelMessage } from './occt';
import { readStep } from './step';
import { isValidShape } from './measure';

/**
 * Builds a part's shape with replicad, feature by feature (runs in the CAD worker). A feature that
 * fails — a fillet too large for its edges, a cut that leaves nothing, an unreadable STEP solid —
 * stops the build with a `GeometryError` naming it, so a caller can say which feature to fix.
 */
export class GeometryError extends Error {
  constructor(
    readonly featureId: string | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'GeometryError';
  }
}

/** Bodies smaller than this (mm³) count as nothing. */
const EMPTY_VOLUME = 1e-6;

export const AXES: Record<Axis, [number, number, number]> = { x: [1, 0, 0], y: [0, 1, 0], z: [0, 0, 1] };

/** The part's shape; its numbers are checked against `limits` first, as every content is before it is written. */
export function buildPart(part: Part, limits: Limits = LIMITS): Shape3D {
  const [problem] = partProblems(part, limits);
  if (problem) throw new GeometryError(problem.featureId, problem.message);
  const bodies = new Map<string, Shape3D>();
  try {
    for (const feature of part.features) {
      const num = (value: Num): number => evaluateNum(value, part.parameters);
      const take = (id: string): Shape3D => {
        const body = bodies.get(id)!;
        bodies.delete(id);
        return body;
      };
      let shape: Shape3D;
      try {
        shape = makeFeature(feature, num, take);
      } catch (error) {
        if (error instanceof GeometryError) throw error;
        throw new GeometryError(feature.id, `feature ${feature.id} (${feature.type}) failed in the kernel: ${kernelMessage(error)}`);
      }
      bodies.set(feature.id, shape);
    }
    if (bodies.size === 0) throw new GeometryError(undefined, 'the part has no features; add one (a box, a cylinder, an extruded sketch)');
    return fuseAll([...bodies.values()]);
  } catch (error) {
    for (const body of bodies.values()) body.delete();
    throw error;
  }
}

function makeFeature(feature: Feature, num: (v: Num) => number, take: (id: string) => Shape3D): Shape3D {
  const fail = (message: string): never => {
    throw new GeometryError(feature.id, `feature ${feature.id} (${feature.type}): ${message}`);
  };
  const vec = (v: readonly Num[] | undefined): [number, number, number] => [num(v?.[0] ?? 0), num(v?.[1] ?? 0), num(v?.[2] ?? 0)];
  switch (feature.type) {
    case 'box': {
      const [x, y, z] = vec(feature.at);
      return makeBox([x, y, z], [x + num(feature.width), y + num(feature.depth), z + num(feature.height)]);
    }
    case 'cylinder':
      return makeCylinder(num(feature.radius), num(feature.height), vec(feature.at), AXES[feature.axis ?? 'z']);
    case 'sphere':
      return makeSphere(num(feature.radius)).translate(vec(feature.at));
    case 'extrude':
      return sketchOf(feature.sketch, num).extrude(num(feature.distance)).asShape3D();
    case 'revolve':
      return sketchOf(feature.sketch, num).revolve(AXES[feature.axis ?? 'z'], { angle: num(feature.angle ?? 360) }).asShape3D();
    case 'union':
      return nonEmpty(fuseAll(feature.bodies.map(take)), () => fail('the union is empty'));
    case 'intersect': {
      const [first, ...rest] = feature.bodies.map(take);
      let shape = first!;
      for (const other of rest) shape = replace(shape, shape.intersect(other), other);
      return nonEmpty(shape, () => fail(`the bodies ${feature.bodies.join(', ')} do not overlap: their intersection is empty`));
    }
    case 'cut': {
      let shape = take(feature.target);
      for (const tool of feature.tools.map(take)) shape = replace(shape, shape.cut(tool), tool);
      return nonEmpty(shape, () => fail(`cutting ${feature.target} with ${feature.tools.join(', ')} leaves nothing`));
    }
    case 'fillet':
    case 'chamfer': {
      const target = take(feature.target);
      const size = num(feature.type === 'fillet' ? feature.radius : feature.distance);
      const finder = edgeFinder(feature.edges, num);
      const count = finder.find(target).length;
      if (count === 0) fail(`no edge of ${feature.target} matches ${JSON.stringify(feature.edges)}`);
      let result: Shape3D;
      try {
        result = feature.type === 'fillet' ? target.fillet(size, () => finder) : target.chamfer(size, () => finder);
      } catch (error) {
        return fail(`a ${feature.type} of ${size} mm does not fit the ${count} selected edges of ${feature.target} (${kernelMessage(error)}); use a smaller ${feature.type === 'fillet' ? 'radius' : 'distance'}`);
      }
      if (!isValidShape(result)) {
        result.delete();
        fail(`a ${feature.type} of ${size} mm on ${feature.target} makes an invalid solid; use a smaller size or fewer edges`);
      }
      target.delete();
      return result;
    }
    case 'translate':
      return take(feature.target).translate(vec(feature.by));
    case 'rotate':
      return take(feature.target).rotate(num(feature.angle), vec(feature.origin), AXES[feature.axis]);
    case 'step':
      return readStep(Buffer.from(feature.data, 'base64'), (message) => fail(message));
  }
}

function sketchOf(sketch: Sketch, num: (v: Num) => number): ReturnType<Drawing['sketchOnPlane']> {
  return profileDrawing(sketch.profile, num).sketchOnPlane(sketch.plane, num(sketch.offset ?? 0));
}

function profileDrawing(profile: Profile, num: (v: Num) => number): Drawing {
  const [cx, cy] = 'center' in profile && profile.center ? [num(profile.center[0]), num(profile.center[1])] : [0, 0];
  switch (profile.shape) {
    case 'rectangle':
      return drawRectangle(num(profile.width), num(profile.height)).translate(cx, cy);
    case 'circle':
      return drawCircle(num(profile.radius)).translate(cx, cy);
    case 'polygon': {
      const [first, ...rest] = profile.points.map(([x, y]) => [num(x), num(y)] as [number, number]);
      let pen = draw(first);
      for (const point of rest) pen = pen.lineTo(point);
      return pen.close();
    }
  }
}

function edgeFinder(selector: EdgeSelector | undefined, num: (v: Num) => number): EdgeFinder {
  const finder = new EdgeFinder();
  if (!selector || 'all' in selector) return finder;
  if ('parallelTo' in selector) return finder.inDirection(selector.parallelTo.toUpperCase() as 'X' | 'Y' | 'Z');
  return finder.inPlane(selector.inPlane, num(selector.offset ?? 0));
}

/** The union of bodies; inputs are released. */
function fuseAll(bodies: Shape3D[]): Shape3D {
  const [first, ...rest] = bodies;
  let shape = first!;
  for (const other of rest) shape = replace(shape, shape.fuse(other), other);
  return shape;
}

/** Returns `next`, releasing the two shapes it was made from. */
function replace(previous: Shape3D, next: Shape3D, used: Shape3D): Shape3D {
  previous.delete();
  used.delete();
  return next;
}

function nonEmpty(shape: Shape3D, fail: () => never): Shape3D {
  if (measureVolume(shape) > EMPTY_VOLUME) return shape;
  shape.delete();
  return fail();
}
