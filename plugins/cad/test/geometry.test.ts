// Invariant: the kernel worker builds every feature type to the volume and bounding box geometry
// predicts, and a part that cannot be built (a fillet larger than its edges allow, a cut or an
// intersection that leaves nothing, an unreadable STEP solid) evaluates to `ok: false` naming the
// feature at fault, instead of a shape.
import { sharedKernel, type Evaluation } from '../src';
import { bracket, part } from './parts';

const kernel = sharedKernel();
afterAll(() => kernel.close());

function measured(evaluation: Evaluation): Extract<Evaluation, { ok: true }> {
  if (!evaluation.ok) throw new Error(`expected the part to build: ${evaluation.message}`);
  return evaluation;
}

it('builds primitives, sketches, booleans and transforms to the predicted volumes', async () => {
  const box = measured(await kernel.evaluate(part([{ id: 'b', type: 'box', width: 10, depth: 20, height: 30, at: [1, 2, 3] }])));
  expect(box).toMatchObject({ valid: true, solids: 1, faces: 6, bbox: { min: [1, 2, 3], max: [11, 22, 33] } });
  expect(box.volume).toBeCloseTo(6000, 6);

  const revolved = measured(
    await kernel.evaluate(
      part([{ id: 'ring', type: 'revolve', sketch: { plane: 'XZ', profile: { shape: 'rectangle', width: 2, height: 4, center: [6, 2] } }, axis: 'z' }]),
    ),
  );
  expect(revolved.volume).toBeCloseTo(Math.PI * (7 ** 2 - 5 ** 2) * 4, 3);

  const extruded = measured(
    await kernel.evaluate(
      part([{ id: 'tri', type: 'extrude', sketch: { plane: 'XY', offset: 5, profile: { shape: 'polygon', points: [[0, 0], ['w', 0], [0, 'w']] } }, distance: 3 }], { w: 4 }),
    ),
  );
  expect(extruded.volume).toBeCloseTo(24, 6);
  expect(extruded.bbox.min[2]).toBeCloseTo(5, 6);

  const combined = measured(
    await kernel.evaluate(
      part([
        { id: 'a', type: 'box', width: 10, depth: 10, height: 10 },
        { id: 'b', type: 'sphere', radius: 3, at: [10, 10, 10] },
        { id: 'u', type: 'union', bodies: ['a', 'b'] },
        { id: 'c', type: 'cylinder', radius: 1, height: 10, axis: 'x' },
        { id: 'moved', type: 'translate', target: 'c', by: [0, 5, 5] },
        { id: 'cut', type: 'cut', target: 'u', tools: ['moved'] },
        { id: 'turned', type: 'rotate', target: 'cut', angle: 90, axis: 'z' },
      ]),
    ),
  );
  const sphereOutside = ((4 / 3) * Math.PI * 27 * 7) / 8;
  expect(combined.volume).toBeCloseTo(1000 + sphereOutside - Math.PI * 10, 2);
  expect(combined.bbox.max[0]).toBeCloseTo(0, 4); // rotated 90° about z: x runs from -13 to 0
  expect(combined.bbox.min[0]).toBeCloseTo(-13, 4);

  const overlap = measured(
    await kernel.evaluate(
      part([
        { id: 'a', type: 'box', width: 10, depth: 10, height: 10 },
        { id: 'b', type: 'box', width: 10, depth: 10, height: 10, at: [5, 5, 5] },
        { id: 'i', type: 'intersect', bodies: ['a', 'b'] },
        { id: 'ch', type: 'chamfer', target: 'i', distance: 1, edges: { inPlane: 'XY', offset: 10 } },
      ]),
    ),
  );
  // Four 5 mm edges lose a 1 × 1 half-square each; at each corner the two cuts share a pyramid of 1/3.
  expect(overlap.volume).toBeCloseTo(125 - 4 * 5 * 0.5 + 4 / 3, 4);
});

it('measures the filleted, bored bracket as one valid solid with 27 faces', async () => {
  const result = measured(await kernel.evaluate(bracket()));
  expect(result).toMatchObject({ valid: true, solids: 1, faces: 27 });
  // The bore removes π·5²·20; the fillets remove at most (1 - π/4)·2² per mm along all 12 edges.
  const filletLoss = (1 - Math.PI / 4) * 4 * 4 * (40 + 30 + 20);
  expect(result.volume).toBeLessThan(24000 - Math.PI * 25 * 20);
  expect(result.volume).toBeGreaterThan(24000 - Math.PI * 25 * 20 - filletLoss);
});

it('names the feature when a fillet is too large, a boolean leaves nothing or a STEP solid is unreadable', async () => {
  const tooLarge = bracket();
  tooLarge.features[1] = { id: 'round', type: 'fillet', target: 'plate', radius: 25 };
  expect(await kernel.evaluate(tooLarge)).toMatchObject({ ok: false, featureId: 'round', message: expect.stringMatching(/fillet of 25 mm does not fit .*smaller radius/) });

  const empty = part([
    { id: 'small', type: 'box', width: 1, depth: 1, height: 1 },
    { id: 'big', type: 'box', width: 5, depth: 5, height: 5, at: [-2, -2, -2] },
    { id: 'gone', type: 'cut', target: 'small', tools: ['big'] },
  ]);
  expect(await kernel.evaluate(empty)).toMatchObject({ ok: false, featureId: 'gone', message: expect.stringMatching(/cutting small with big leaves nothing/) });

  const apart = part([
    { id: 'a', type: 'box', width: 1, depth: 1, height: 1 },
    { id: 'b', type: 'box', width: 1, depth: 1, height: 1, at: [5, 0, 0] },
    { id: 'both', type: 'intersect', bodies: ['a', 'b'] },
  ]);
  expect(await kernel.evaluate(apart)).toMatchObject({ ok: false, featureId: 'both', message: expect.stringMatching(/do not overlap/) });

  const corrupt = part([{ id: 'imported', type: 'step', data: Buffer.from('ISO-10303-21;\nHEADER;\nnonsense').toString('base64') }]);
  expect(await kernel.evaluate(corrupt)).toMatchObject({ ok: false, featureId: 'imported', message: expect.stringMatching(/not a readable STEP file/) });

  const noEdges = part([
    { id: 'b', type: 'box', width: 1, depth: 1, height: 1 },
    { id: 'f', type: 'fillet', target: 'b', radius: 0.1, edges: { inPlane: 'XY', offset: 7 } },
  ]);
  expect(await kernel.evaluate(noEdges)).toMatchObject({ ok: false, featureId: 'f', message: expect.stringMatching(/no edge of b matches/) });

  // The worker survives its failures: a good part still builds afterwards.
  expect(measured(await kernel.evaluate(part([{ id: 's', type: 'sphere', radius: 1 }]))).solids).toBe(1);
});

it('answers a repeated evaluation from its cache, the same figures', async () => {
  const first = await kernel.evaluate(bracket());
  const second = await kernel.evaluate(bracket());
  expect(second).toBe(first);
});
