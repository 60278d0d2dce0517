import { measureVolume, type Shape3D } from 'replicad';
import { occt } from './occt';

/** The figures agents check a part against. */
export type Measures = {
  valid: boolean;
  solids: number;
  faces: number;
  volume: number;
  bbox: { min: [number, number, number]; max: [number, number, number] };
};

export function measure(shape: Shape3D): Measures {
  const [min, max] = shape.boundingBox.bounds;
  return { valid: isValidShape(shape), solids: count(shape.solids), faces: count(shape.faces), volume: measureVolume(shape), bbox: { min: nm(min), max: nm(max) } };
}

/** Corners to the nanometre, so that a box at the origin reports 0 rather than -4e-16. */
function nm(point: [number, number, number]): [number, number, number] {
  return point.map((v) => Math.round(v * 1e6) / 1e6 + 0) as [number, number, number];
}

/** OCCT's topological and geometric check (BRepCheck_Analyzer). */
export function isValidShape(shape: Shape3D): boolean {
  const analyzer = new (occt().BRepCheck_Analyzer)(shape.wrapped, true, false, false);
  try {
    return analyzer.IsValid();
  } finally {
    analyzer.delete();
  }
}

/** Counts sub-shapes, releasing the wrappers replicad made for them. */
function count(items: { delete(): void }[]): number {
  for (const item of items) item.delete();
  return items.length;
}
