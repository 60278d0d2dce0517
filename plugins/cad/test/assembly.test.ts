// Invariant: an assembly's cad_check reports exactly the volume each overlapping pair of placed
// parts shares (none for parts that only touch or stand apart), placements rotate then translate,
// ops on different parts commute, and the assembly exports as one STEP file FreeCAD reads with one
// valid solid per part.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Host, type Json, type ToolResult } from '@cowork/host';
import { plugin, sharedKernel, type Assembly, type AssemblyPart } from '../src';
import { freecadRead, part } from './parts';

let dir: string;
let host: Host;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cowork-cad-asm-'));
  host = await Host.open({ workspaceDir: join(dir, 'ws'), plugins: [plugin] });
});
afterAll(async () => {
  await host.close();
  await sharedKernel().close();
  rmSync(dir, { recursive: true, force: true });
});

function check(resourceId: string): Promise<ToolResult> {
  return host.registry.tool('cad_check')!.tool.handler({ resourceId } as Json, {
    operator: 'agent:a1',
    signal: new AbortController().signal,
    host: { workspaceDir: host.workspaceDir, resources: host.resources },
  });
}

const cube = (id: string, translate: [number, number, number], rotate?: AssemblyPart['placement']['rotate']): AssemblyPart => ({
  id,
  part: part([{ id: 'b', type: 'box', width: 10, depth: 10, height: 10 }]),
  placement: rotate ? { translate, rotate } : { translate },
});

it('reports the shared volume of overlapping parts and none once they only touch', async () => {
  const content: Assembly = { units: 'mm', parts: [cube('a', [0, 0, 0]), cube('b', [5, 0, 0]), cube('c', [0, 0, 10])] };
  const r = await host.resources.create({ kind: 'cad.assembly', content, operator: 'human:ann' });
  const first = (await check(r.id)).content as { ok: boolean; interferences: { a: string; b: string; volume: number }[] };
  expect(first.ok).toBe(true);
  expect(first.interferences).toEqual([{ a: 'a', b: 'b', volume: expect.closeTo(500, 6) }]);

  // b turned 90° about z lands on x ∈ [-10, 0]: now it touches a and overlaps nothing.
  await host.resources.commit(r.id, { baseRevision: 0, op: { type: 'place_part', id: 'b', placement: { translate: [0, 0, 0], rotate: { axis: 'z', angle: 90 } } }, operator: 'human:ann' });
  await host.resources.commit(r.id, { baseRevision: 1, op: { type: 'edit_part', id: 'c', op: { type: 'set_parameter', name: 'unused', value: 1 } }, operator: 'agent:a1' });
  const second = (await check(r.id)).content as { interferences: unknown[]; parts: { id: string; volume: number }[] };
  expect(second.interferences).toEqual([]);
  expect(second.parts.map((p) => [p.id, Math.round(p.volume)])).toEqual([['a', 1000], ['b', 1000], ['c', 1000]]);
  const diff = await host.resources.diff(r.id, 0, 2);
  expect(diff).toContain('part [b] moved: (5, 0, 0) → (0, 0, 0) rotated 90° about z');
  expect(diff).toContain('part [c]: added parameter unused = 1');

  const step = await host.exports.export(r.id, 'step');
  writeFileSync(join(dir, 'assembly.step'), step.data);
  const read = freecadRead(join(dir, 'assembly.step'));
  expect(read).toMatchObject({ valid: true, solids: 3 });
  expect(read.volume).toBeCloseTo(3000, 3);
});
