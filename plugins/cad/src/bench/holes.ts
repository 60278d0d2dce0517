import type { CylinderFace, Reading } from './freecad';

/**
 * Holes as a person counts them in a STEP file: the concave cylindrical faces that share one axis
 * line and radius and together go all the way round it (a bore split into halves is one hole; the
 * quarter-round of a concave corner is none). Positions are read in the plane across the axis,
 * from the corner of the part's bounding box (`x, y` for a hole along z, `y, z` along x, `x, z`
 * along y), so a part need not sit at the origin.
 */
export type Axis = 'x' | 'y' | 'z';

export type Hole = {
  diameter: number;
  axis: Axis | 'other';
  /** Where the axis crosses the plane across it, from the bounding box's corner. */
  at: [number, number];
  /** Open at both ends: the axis just past each end is outside the solid. */
  through: boolean;
  /** Its length along the axis. */
  depth: number;
};

const SAME = 1e-3;

export function holesOf(reading: Reading): Hole[] {
  const groups: CylinderFace[][] = [];
  for (const face of reading.cylinders.filter((c) => c.concave)) {
    const axis = canonical(face.axis);
    const group = groups.find((g) => {
      const first = g[0]!;
      return first.solid === face.solid && near(first.radius, face.radius) && canonical(first.axis).every((v, i) => near(v, axis[i]!)) && first.foot.every((v, i) => near(v, face.foot[i]!));
    });
    if (group) group.push(face);
    else groups.push([face]);
  }
  const holes: Hole[] = [];
  for (const group of groups) {
    const sweep = group.reduce((sum, face) => sum + face.sweep, 0);
    if (sweep < 2 * Math.PI - 1e-3) continue;
    const first = group[0]!;
    const axis = axisName(canonical(first.axis));
    const [a, b] = acrossAxis(axis);
    const min = reading.bbox.min;
    const from = Math.min(...group.map((f) => Math.min(f.from, f.to)));
    const to = Math.max(...group.map((f) => Math.max(f.from, f.to)));
    holes.push({
      diameter: round(first.radius * 2),
      axis,
      at: axis === 'other' ? [NaN, NaN] : [round(first.foot[a]! - min[a]!), round(first.foot[b]! - min[b]!)],
      through: group.some((f) => f.openBelow) && group.some((f) => f.openAbove),
      depth: round(to - from),
    });
  }
  return holes.sort((p, q) => p.diameter - q.diameter || p.at[0] - q.at[0] || p.at[1] - q.at[1]);
}

/** The two coordinates across an axis: y, z across x; x, z across y; x, y across z. */
export function acrossAxis(axis: Axis | 'other'): [number, number] {
  return axis === 'x' ? [1, 2] : axis === 'y' ? [0, 2] : [0, 1];
}

export function holeText(hole: Hole): string {
  return `⌀${hole.diameter} along ${hole.axis} at (${hole.at.join(', ')})${hole.through ? ' through' : `, blind ${hole.depth} deep`}`;
}

/** An axis direction pointing the positive way (its first non-zero component positive). */
function canonical(v: readonly number[]): number[] {
  const lead = v.find((c) => Math.abs(c) > SAME) ?? 1;
  return v.map((c) => (lead < 0 ? -c : c) + 0);
}

function axisName(v: readonly number[]): Axis | 'other' {
  if (near(Math.abs(v[0]!), 1)) return 'x';
  if (near(Math.abs(v[1]!), 1)) return 'y';
  if (near(Math.abs(v[2]!), 1)) return 'z';
  return 'other';
}

function near(a: number, b: number): boolean {
  return Math.abs(a - b) <= SAME;
}

export function round(value: number): number {
  return Math.round(value * 1000) / 1000 + 0;
}
