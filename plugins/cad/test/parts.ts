// Parts the tests share, and FreeCAD as the outside reader of STEP files.
import { execFileSync } from 'node:child_process';
import type { Feature, Part } from '../src';

export function part(features: Feature[], parameters: Record<string, number> = {}): Part {
  return { units: 'mm', parameters, features };
}

/** A 40 × 30 × 20 plate with a bored hole of radius `hole` and every edge filleted: 1 solid, 27 faces. */
export function bracket(): Part {
  return part(
    [
      { id: 'plate', type: 'box', width: 'width', depth: 'depth', height: 'height' },
      { id: 'round', type: 'fillet', target: 'plate', radius: 2 },
      { id: 'bore', type: 'cylinder', radius: 'hole', height: 'height + 2', at: ['width / 2', 'depth / 2', -1] },
      { id: 'hole', type: 'cut', target: 'round', tools: ['bore'] },
    ],
    { width: 40, depth: 30, height: 20, hole: 5 },
  );
}

export type FreecadShape = { valid: boolean; volume: number; solids: number };

/** Runs a FreeCAD Python script headless and returns the JSON it printed on a `RESULT ` line. */
export function freecad<T>(script: string): T {
  const out = execFileSync('freecadcmd', ['-c', script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const line = out.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) throw new Error(`FreeCAD printed no result:\n${out}`);
  return JSON.parse(line.slice('RESULT '.length)) as T;
}

/** FreeCAD's reading of a STEP file. */
export function freecadRead(path: string): FreecadShape {
  return freecad(
    `import Part, json\ns = Part.Shape()\ns.read(${JSON.stringify(path)})\nprint('RESULT ' + json.dumps({'valid': s.isValid(), 'volume': s.Volume, 'solids': len(s.Solids)}))`,
  );
}
