import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CoworkError } from '@cowork/host';

/**
 * FreeCAD (headless `freecadcmd`, Debian's freecad) as the outside reader of a STEP file: what a
 * person opening the exported file in another CAD program would measure. The cad suite's checks
 * judge parts and assemblies by this reading, never by the plugin's own kernel.
 */

type Vec3 = [number, number, number];
export type Box = { min: Vec3; max: Vec3 };

/** A cylindrical face as FreeCAD reads it. */
export type CylinderFace = {
  solid: number;
  radius: number;
  /** The axis direction (unit) and the point where the axis line crosses the plane through the origin normal to it. */
  axis: Vec3;
  foot: Vec3;
  /** The face's extent along the axis (dot products with `axis`). */
  from: number;
  to: number;
  /** The angle the face sweeps about its axis (radians): 2π for a whole bore, π/2 for a fillet of a corner. */
  sweep: number;
  /** The material lies outside the cylinder (a hole or a concave round) rather than inside it (a shaft, a boss). */
  concave: boolean;
  /** Whether the axis just past each end (0.01 mm) is outside the solid: both for a through hole, one for a blind one. */
  openBelow: boolean;
  openAbove: boolean;
};

/** A cylindrical or other face's kind: FreeCAD's surface class (`Plane`, `Cylinder`, `Cone`, `Sphere`, `Toroid`, `BSplineSurface`...). */
export type Reading = {
  valid: boolean;
  volume: number;
  bbox: Box;
  /** The solids in the file's order (an assembly's parts, in its order). */
  solids: { volume: number; bbox: Box; valid: boolean }[];
  faces: Record<string, number>;
  cylinders: CylinderFace[];
};

/** The Python run by freecadcmd: reads the STEP file, prints one `RESULT {json}` line. Lengths in mm, rounded to 1e-6. */
function script(path: string): string {
  return `
import Part, json
import FreeCAD as App
def r6(x):
    return round(x, 6) + 0.0
def vec(v):
    return [r6(v.x), r6(v.y), r6(v.z)]
def box(b):
    return {'min': [r6(b.XMin), r6(b.YMin), r6(b.ZMin)], 'max': [r6(b.XMax), r6(b.YMax), r6(b.ZMax)]}
shape = Part.Shape()
shape.read(${JSON.stringify(path)})
faces = {}
cylinders = []
for index, solid in enumerate(shape.Solids):
    for face in solid.Faces:
        surface = face.Surface
        kind = surface.__class__.__name__
        faces[kind] = faces.get(kind, 0) + 1
        if kind != 'Cylinder':
            continue
        u0, u1, v0, v1 = face.ParameterRange
        point = face.valueAt((u0 + u1) / 2, (v0 + v1) / 2)
        normal = face.normalAt((u0 + u1) / 2, (v0 + v1) / 2)
        axis = App.Vector(surface.Axis)
        axis.normalize()
        offset = point - surface.Center
        radial = offset - axis * offset.dot(axis)
        along = [v.Point.dot(axis) for v in face.Vertexes] or [surface.Center.dot(axis) + v0, surface.Center.dot(axis) + v1]
        low, high = min(along), max(along)
        foot = surface.Center - axis * surface.Center.dot(axis)
        def outside(t):
            return not solid.isInside(foot + axis * t, 1e-6, True)
        cylinders.append({'solid': index, 'radius': r6(surface.Radius), 'axis': vec(axis), 'foot': vec(foot), 'from': r6(low), 'to': r6(high),
                          'sweep': r6(abs(u1 - u0)), 'concave': radial.dot(normal) < 0, 'openBelow': outside(low - 0.01), 'openAbove': outside(high + 0.01)})
solids = [{'volume': r6(s.Volume), 'bbox': box(s.BoundBox), 'valid': s.isValid()} for s in shape.Solids]
print('RESULT ' + json.dumps({'valid': shape.isValid(), 'volume': r6(shape.Volume), 'bbox': box(shape.BoundBox), 'solids': solids, 'faces': faces, 'cylinders': cylinders}, sort_keys=True))
`;
}

const FREECAD_TIMEOUT_MS = 120_000;
const KEPT_READINGS = 64;
/** Readings by the hash of the file's DATA section (its header carries the time it was written). */
const readings = new Map<string, Promise<Reading>>();

/**
 * FreeCAD's reading of a STEP file's bytes, written into `workDir`. The same geometry is read once
 * per process: a rubric's several items on one resource share one FreeCAD run.
 */
export function readStepWithFreecad(step: Uint8Array, workDir: string, signal?: AbortSignal): Promise<Reading> {
  const text = Buffer.from(step).toString('latin1');
  const key = createHash('sha256').update(text.slice(Math.max(0, text.indexOf('DATA;')))).digest('hex');
  let reading = readings.get(key);
  if (!reading) {
    reading = measure(step, join(workDir, `${key.slice(0, 16)}.step`), signal);
    readings.set(key, reading);
    reading.catch(() => readings.delete(key));
    for (const old of readings.keys()) {
      if (readings.size <= KEPT_READINGS) break;
      readings.delete(old);
    }
  }
  return reading;
}

async function measure(step: Uint8Array, path: string, signal?: AbortSignal): Promise<Reading> {
  await writeFile(path, step);
  const out = await new Promise<string>((resolve, reject) => {
    execFile('freecadcmd', ['-c', script(path)], { encoding: 'utf8', timeout: FREECAD_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024, ...(signal ? { signal } : {}) }, (error, stdout, stderr) => {
      if (error && (error as NodeJS.ErrnoException).code === 'ENOENT') {
        reject(new CoworkError('external_unavailable', 'freecadcmd is not installed; the cad suite measures STEP exports with FreeCAD (Debian package freecad, in plugins/cad/system-deps.txt)'));
      } else if (error && !stdout.includes('RESULT ')) {
        reject(new CoworkError('external_unavailable', `FreeCAD could not read the STEP export: ${error.message}\n${stderr.slice(-2000)}`));
      } else {
        resolve(stdout);
      }
    });
  });
  const line = out.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) throw new CoworkError('external_unavailable', `FreeCAD printed no measurement for the STEP export:\n${out.slice(-2000)}`);
  return JSON.parse(line.slice('RESULT '.length)) as Reading;
}
