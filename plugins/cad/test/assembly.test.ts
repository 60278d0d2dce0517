// Invariant: an assembly's cad_check reports exactly the volume each overlapping pair of placed
// parts shares (none for parts that only touch or stand apart), placements rotate then translate,
// ops on different parts commute, and the assembly exports as one STEP file FreeCAD reads with one
// valid solid per part.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Json, type ToolResult } from '@cowork/host';
import { openTempHost, type TempHost } from '@cowork/host/testkit';
import { plugin, type Assembly, type AssemblyPart } from '../src';
import { freecadRead, part } from './parts';

let host: TempHost;
beforeAll(async () => {
  host = await openTempHost({ plugins: [plugin], prefix: 'cowork-cad-asm-' });
});
// Closing the host also stops the CAD worker (the plugin's close).
afterAll(() => host.dispose());

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
  writeFileSync(join(host.dir, 'assembly.step'), step.data);
  const read = freecadRead(join(host.dir, 'assembly.step'));
  expect(read).toMatchObject({ valid: true, solids: 3 });
  expect(read.volume).toBeCloseTo(3000, 3);
});

// A part people edit on its own, used by an assembly at the revision it names.
describe('a part referred to by revision', () => {
  const box = (width: number) => part([{ id: 'b', type: 'box', width, depth: 10, height: 10 }]);

  it('is read at its revision for checks and exports, moves to a newer one only by set_part_ref, and is edited in its own resource', async () => {
    const bracket = await host.resources.create({ kind: 'cad.part', content: box(10), operator: 'human:ann' });
    const content: Assembly = { units: 'mm', parts: [cube('base', [0, 0, 0]), { id: 'bracket', ref: { resourceId: bracket.id, revision: 0 }, placement: { translate: [20, 0, 0] } }] };
    const asm = await host.resources.create({ kind: 'cad.assembly', content, operator: 'human:ann' });
    expect(await host.resources.summarize(asm.id)).toContain(`[bracket] at (20, 0, 0), ${bracket.id} revision 0`);

    // Someone widens the bracket in its own resource: the assembly still uses revision 0.
    await host.resources.commit(bracket.id, { baseRevision: 0, op: { type: 'edit_feature', id: 'b', set: { width: 30 } }, operator: 'human:bo' });
    const before = (await check(asm.id)).content as { parts: { id: string; volume: number }[]; interferences: unknown[] };
    expect(before.parts.map((p) => [p.id, Math.round(p.volume)])).toEqual([['base', 1000], ['bracket', 1000]]);

    // An agent moves the assembly to revision 1, and places the wider bracket into the base.
    await host.resources.commit(asm.id, { baseRevision: 0, op: { type: 'set_part_ref', id: 'bracket', revision: 1 }, operator: 'agent:a1' });
    await host.resources.commit(asm.id, { baseRevision: 1, op: { type: 'place_part', id: 'bracket', placement: { translate: [-5, 0, 0] } }, operator: 'agent:a1' });
    const after = (await check(asm.id)).content as { parts: { id: string; volume: number }[]; interferences: { a: string; b: string; volume: number }[] };
    expect(after.parts.map((p) => [p.id, Math.round(p.volume)])).toEqual([['base', 1000], ['bracket', 3000]]);
    expect(after.interferences).toEqual([{ a: 'base', b: 'bracket', volume: expect.closeTo(1000, 6) }]);
    expect(await host.resources.diff(asm.id, 0, 1)).toContain(`part [bracket]: ${bracket.id} revision 0 → ${bracket.id} revision 1`);

    // Revision 0 of the assembly still exports the narrow bracket.
    writeFileSync(join(host.dir, 'ref-r0.step'), (await host.exports.export(asm.id, 'step', { revision: 0 })).data);
    writeFileSync(join(host.dir, 'ref-r2.step'), (await host.exports.export(asm.id, 'step')).data);
    expect(freecadRead(join(host.dir, 'ref-r0.step')).volume).toBeCloseTo(2000, 3);
    expect(freecadRead(join(host.dir, 'ref-r2.step')).volume).toBeCloseTo(4000, 3);

    const edit = await host.resources
      .commit(asm.id, { baseRevision: 2, op: { type: 'edit_part', id: 'bracket', op: { type: 'set_parameter', name: 'x', value: 1 } }, operator: 'agent:a1' })
      .catch((e: unknown) => e);
    expect(edit).toMatchObject({ code: 'invalid_op', message: expect.stringContaining(`refers to ${bracket.id}: edit that cad.part, then set_part_ref`) });
  });

  it('refuses a reference to a revision, resource or kind that is not there, and writes nothing', async () => {
    const bracket = await host.resources.create({ kind: 'cad.part', content: box(10), operator: 'human:ann' });
    const note = await host.resources.create({ kind: 'text', operator: 'human:ann' });
    const withRef = (resourceId: string, revision: number): Assembly => ({ units: 'mm', parts: [{ id: 'p', ref: { resourceId, revision }, placement: { translate: [0, 0, 0] } }] });

    await expect(host.resources.create({ kind: 'cad.assembly', content: withRef(bracket.id, 3), operator: 'human:ann' })).rejects.toMatchObject({
      code: 'invalid_content',
      message: expect.stringContaining(`part [p] refers to ${bracket.id} revision 3, but its newest revision is 0`),
    });
    await expect(host.resources.create({ kind: 'cad.assembly', content: withRef('r_missing', 0), operator: 'human:ann' })).rejects.toMatchObject({
      message: expect.stringContaining('there is no such resource'),
    });
    await expect(host.resources.create({ kind: 'cad.assembly', content: withRef(note.id, 0), operator: 'human:ann' })).rejects.toMatchObject({
      message: expect.stringContaining('which is a text, not a cad.part'),
    });
    const both = { units: 'mm', parts: [{ id: 'p', part: box(10), ref: { resourceId: bracket.id, revision: 0 }, placement: { translate: [0, 0, 0] } }] };
    await expect(host.resources.create({ kind: 'cad.assembly', content: both as unknown as Json, operator: 'human:ann' })).rejects.toMatchObject({ code: 'invalid_content' });

    const asm = await host.resources.create({ kind: 'cad.assembly', content: withRef(bracket.id, 0), operator: 'human:ann' });
    await expect(host.resources.commit(asm.id, { baseRevision: 0, op: { type: 'set_part_ref', id: 'p', revision: 7 }, operator: 'agent:a1' })).rejects.toMatchObject({
      code: 'invalid_op',
      message: expect.stringContaining('its newest revision is 0'),
    });
    expect((await host.resources.get(asm.id)).revision).toBe(0);
  });
});
