// Invariant: exports are real files other programs read. A new part (no content given) exports a
// STEP that FreeCAD reads as one valid 40 × 30 × 20 box, a binary STL of that box, and a GLB that
// three.js's GLTFLoader parses to the same box (in metres, Y-up); a bored, filleted part's STEP
// (AP214) reads in FreeCAD as a valid solid of the plugin's volume within 0.1%; a STEP file FreeCAD
// wrote imports into the plugin with FreeCAD's volume; a corrupt STEP file is refused as
// invalid_file and creates nothing.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isCoworkError } from '@cowork/host';
import { openTempHost, type TempHost } from '@cowork/host/testkit';
import { Box3 } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { plugin, sharedKernel, type Part } from '../src';
import { bracket, freecad, freecadRead } from './parts';

let host: TempHost;
beforeAll(async () => {
  host = await openTempHost({ plugins: [plugin], prefix: 'cowork-cad-' });
});
// Closing the host also stops the CAD worker (the plugin's close).
afterAll(() => host.dispose());

async function exported(id: string, format: string): Promise<Uint8Array> {
  return (await host.exports.export(id, format)).data;
}

it('exports a new part as the default box in STEP, STL and GLB', async () => {
  const r = await host.resources.create({ kind: 'cad.part', operator: 'human:ann' });
  expect(r.content).toMatchObject({ parameters: { width: 40, depth: 30, height: 20 } });

  const step = await exported(r.id, 'step');
  expect(Buffer.from(step).toString('latin1')).toContain("FILE_SCHEMA(('AUTOMOTIVE_DESIGN");
  writeFileSync(join(host.dir, 'box.step'), step);
  const read = freecadRead(join(host.dir, 'box.step'));
  expect(read).toMatchObject({ valid: true, solids: 1 });
  expect(read.volume).toBeCloseTo(24000, 3);

  const stl = Buffer.from(await exported(r.id, 'stl'));
  const triangles = stl.readUInt32LE(80);
  expect(triangles).toBeGreaterThanOrEqual(12);
  expect(stl.length).toBe(84 + 50 * triangles);
  const xs: number[] = [];
  const zs: number[] = [];
  for (let t = 0; t < triangles; t++) {
    for (let v = 0; v < 3; v++) {
      const at = 84 + t * 50 + 12 + v * 12;
      xs.push(stl.readFloatLE(at));
      zs.push(stl.readFloatLE(at + 8));
    }
  }
  expect([Math.min(...xs), Math.max(...xs), Math.min(...zs), Math.max(...zs)]).toEqual([0, 40, 0, 20]);

  const glb = await exported(r.id, 'glb');
  const gltf = await new GLTFLoader().parseAsync(glb.buffer.slice(glb.byteOffset, glb.byteOffset + glb.byteLength) as ArrayBuffer, '');
  const box = new Box3().setFromObject(gltf.scene);
  const size = [box.max.x - box.min.x, box.max.y - box.min.y, box.max.z - box.min.z];
  expect(size[0]).toBeCloseTo(0.04, 6); // x stays x
  expect(size[1]).toBeCloseTo(0.02, 6); // CAD z (height) is glTF's up
  expect(size[2]).toBeCloseTo(0.03, 6);
});

it('writes a STEP of a bored, filleted part that FreeCAD reads with the same volume', async () => {
  const r = await host.resources.create({ kind: 'cad.part', content: bracket(), operator: 'human:ann' });
  const evaluation = await sharedKernel().evaluate(bracket());
  if (!evaluation.ok) throw new Error(evaluation.message);
  writeFileSync(join(host.dir, 'bracket.step'), await exported(r.id, 'step'));
  const read = freecadRead(join(host.dir, 'bracket.step'));
  expect(read).toMatchObject({ valid: true, solids: 1 });
  expect(Math.abs(read.volume - evaluation.volume) / evaluation.volume).toBeLessThan(0.001);
});

it('imports a STEP file FreeCAD wrote, with FreeCAD’s volume, and refuses a corrupt one', async () => {
  const path = join(host.dir, 'freecad.step');
  const made = freecad<{ volume: number }>(
    [
      'import Part, json',
      'import FreeCAD as App',
      'shape = Part.makeBox(20, 10, 5).cut(Part.makeCylinder(2, 5, App.Vector(10, 5, 0)))',
      `shape.exportStep(${JSON.stringify(path)})`,
      "print('RESULT ' + json.dumps({'volume': shape.Volume}))",
    ].join('\n'),
  );
  const r = await host.imports.importFile({ kind: 'cad.part', format: 'step', data: readFileSync(path), fileName: 'freecad.step', operator: 'human:ann' });
  const content = r.content as Part;
  expect(content.features).toEqual([expect.objectContaining({ id: 'imported', type: 'step', fileName: 'freecad.step' })]);
  const evaluation = await sharedKernel().evaluate(content);
  expect(evaluation).toMatchObject({ ok: true, solids: 1, valid: true });
  if (!evaluation.ok) return;
  expect(Math.abs(evaluation.volume - made.volume) / made.volume).toBeLessThan(0.001);
  expect(evaluation.volume).toBeCloseTo(1000 - Math.PI * 4 * 5, 1);

  const before = (await host.resources.list({ kind: 'cad.part' })).length;
  let refused: unknown;
  try {
    await host.imports.importFile({ kind: 'cad.part', format: 'step', data: Buffer.from('ISO-10303-21;\nHEADER;\ntruncated'), fileName: 'bad.step', operator: 'human:ann' });
  } catch (error) {
    refused = error;
  }
  expect(isCoworkError(refused) && refused.code).toBe('invalid_file');
  expect((refused as Error).message).toMatch(/bad\.step: the data is not a readable STEP file/);
  expect((await host.resources.list({ kind: 'cad.part' })).length).toBe(before);
});
