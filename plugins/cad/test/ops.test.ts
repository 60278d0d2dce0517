// Invariant: ops and expressions are checked without a kernel: an op whose result would reference a
// missing or already used body, name a missing parameter, or hold an expression outside
// `numbers, names, + - * / ()` is refused with a message naming the feature; accepted ops never
// mutate their input, and a parameter change and an added feature commute.
import { isCoworkError } from '@cowork/host';
import { evaluateNum, parameterNames } from '../src/part/expression';
import { applyPartOp, validatePartOp, type PartOp } from '../src/part/ops';
import type { Part } from '../src';
import { bracket } from './parts';

function refusal(part: Part, op: PartOp): string {
  try {
    applyPartOp(part, op);
  } catch (error) {
    if (isCoworkError(error) && error.code === 'invalid_op') return error.message;
    throw error;
  }
  throw new Error('expected the op to be refused');
}

describe('expressions', () => {
  it('evaluate arithmetic over parameters with precedence and unary minus', () => {
    expect(evaluateNum('width / 2 - (wall + 1) * 2', { width: 40, wall: 3 })).toBe(12);
    expect(evaluateNum('-depth', { depth: 4 })).toBe(-4);
    expect(evaluateNum('1.5e1 + .5', {})).toBe(15.5);
    expect(parameterNames('a * (b - a)')).toEqual(['a', 'b']);
  });

  it('refuse anything else, with a sentence', () => {
    expect(() => evaluateNum('process.exit()', {})).toThrow(/cannot read the expression/);
    expect(() => evaluateNum('width ** 2', { width: 1 })).toThrow(/cannot read/);
    expect(() => evaluateNum('(1 + 2', {})).toThrow(/not closed/);
    expect(() => evaluateNum('missing + 1', {})).toThrow(/parameter "missing", which does not exist/);
    expect(() => evaluateNum('1 / (a - a)', { a: 2 })).toThrow(/not a finite number/);
  });
});

describe('part ops', () => {
  it('change a parameter and add a feature in either order with the same result', () => {
    const change: PartOp = { type: 'set_parameter', name: 'width', value: 60 };
    const add: PartOp = { type: 'add_feature', feature: { id: 'edge', type: 'chamfer', target: 'hole', distance: 1, edges: { parallelTo: 'z' } } };
    const base = bracket();
    const frozen = JSON.stringify(base);
    const one = applyPartOp(applyPartOp(base, change), add);
    const other = applyPartOp(applyPartOp(base, add), change);
    expect(one).toEqual(other);
    expect(one.parameters.width).toBe(60);
    expect(one.features.map((f) => f.id)).toEqual(['plate', 'round', 'bore', 'hole', 'edge']);
    expect(JSON.stringify(base)).toBe(frozen);
  });

  it('refuse references to missing, later or already consumed bodies', () => {
    expect(refusal(bracket(), { type: 'add_feature', feature: { id: 'x', type: 'fillet', target: 'ghost', radius: 1 } })).toMatch(/feature x \(fillet\): uses ghost, which is not a feature before it/);
    expect(refusal(bracket(), { type: 'add_feature', feature: { id: 'x', type: 'fillet', target: 'plate', radius: 1 } })).toMatch(/feature round already consumed; use round instead/);
    expect(refusal(bracket(), { type: 'add_feature', after: 'plate', feature: { id: 'x', type: 'translate', target: 'bore', by: [1, 0, 0] } })).toMatch(/uses bore, which is not a feature before it/);
    expect(refusal(bracket(), { type: 'edit_feature', id: 'hole', set: { tools: ['hole'] } })).toMatch(/it names itself/);
    expect(refusal(bracket(), { type: 'add_feature', feature: { id: 'plate', type: 'sphere', radius: 1 } })).toMatch(/already exists/);
  });

  it('refuse missing parameters, bad expressions and dimensions out of range', () => {
    expect(refusal(bracket(), { type: 'edit_feature', id: 'plate', set: { width: 'length' } })).toMatch(/feature plate \(box\): width: .*parameter "length", which does not exist/);
    expect(refusal(bracket(), { type: 'set_parameter', name: 'hole', value: 0 })).toMatch(/feature bore \(cylinder\): radius must be from 0\.000001 to 1000000 mm but is 0/);
    expect(refusal(bracket(), { type: 'edit_feature', id: 'round', set: { radius: 'eval(1)' } })).toMatch(/cannot read the expression/);
    expect(refusal(bracket(), { type: 'delete_parameter', name: 'hole' })).toMatch(/parameter hole is used by features bore/);
  });

  it('refuse removing a body a later feature uses, and edits of id or type', () => {
    expect(refusal(bracket(), { type: 'remove_feature', id: 'bore' })).toMatch(/feature bore is used by feature hole/);
    expect(refusal(bracket(), { type: 'remove_feature', id: 'nope' })).toMatch(/no feature with id "nope"; the part's features are plate, round, bore, hole/);
    expect(validatePartOp({ type: 'edit_feature', id: 'plate', set: { type: 'sphere' } })).toEqual([expect.stringMatching(/cannot change a feature's type/)]);
    const removed = applyPartOp(bracket(), { type: 'remove_feature', id: 'hole' });
    expect(removed.features.map((f) => f.id)).toEqual(['plate', 'round', 'bore']);
  });

  it('set_dimension sets one number or point by name, a typed number as a number, and names the dimensions there are', () => {
    const boss: PartOp = { type: 'add_feature', feature: { id: 'boss', type: 'extrude', sketch: { plane: 'XY', profile: { shape: 'circle', radius: 3 } }, distance: 5 } };
    const base = applyPartOp(bracket(), boss);
    const frozen = JSON.stringify(base);
    let edited = applyPartOp(base, { type: 'set_dimension', id: 'boss', dimension: 'sketch.profile.radius', value: ' 4.5 ' });
    edited = applyPartOp(edited, { type: 'set_dimension', id: 'boss', dimension: 'sketch.profile.center', value: [1, 'hole'] });
    edited = applyPartOp(edited, { type: 'set_dimension', id: 'boss', dimension: 'distance', value: 'height / 2' });
    expect(edited.features[4]).toEqual({ id: 'boss', type: 'extrude', sketch: { plane: 'XY', profile: { shape: 'circle', radius: 4.5, center: [1, 'hole'] } }, distance: 'height / 2' });
    expect(JSON.stringify(base)).toBe(frozen);
    expect(refusal(base, { type: 'set_dimension', id: 'boss', dimension: 'width', value: 1 })).toBe(
      'feature boss (extrude) has no dimension "width"; it has distance, sketch.offset, sketch.profile.radius, sketch.profile.center',
    );
    expect(refusal(base, { type: 'set_dimension', id: 'boss', dimension: 'distance', value: [1, 2] })).toBe('feature boss (extrude): distance takes one number, not 2');
    expect(refusal(base, { type: 'set_dimension', id: 'boss', dimension: 'distance', value: -5 })).toMatch(/distance must be from 0\.000001 to 1000000 mm but is -5/);
  });
});
