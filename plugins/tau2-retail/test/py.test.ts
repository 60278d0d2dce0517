import { canonicalJson, pyFloatRepr, pyJson, pyRound2 } from '../src/py';

// Expected values are what CPython 3.11 prints for the same expressions.
describe('Python float behaviour', () => {
  test('round(x, 2) rounds the exact binary value, and exact ties to even', () => {
    expect(pyRound2(2.675)).toBe(2.67); // 2.67499999... in binary
    expect(pyRound2(0.125)).toBe(0.12); // an exact tie: to even
    expect(pyRound2(0.375)).toBe(0.38);
    expect(pyRound2(-0.125)).toBe(-0.12);
    expect(pyRound2(2.5)).toBe(2.5);
    expect(pyRound2(1.005)).toBe(1); // 1.00499999...
    expect(pyRound2(100.0 + 234.56 - 0.01)).toBe(334.55);
    expect(pyRound2(1e300)).toBe(1e300);
    expect(Object.is(pyRound2(-0.001), -0)).toBe(true);
  });

  test('repr(float) is the shortest round-trip text in Python\'s layout', () => {
    expect(pyFloatRepr(100)).toBe('100.0');
    expect(pyFloatRepr(0.1 + 0.2)).toBe('0.30000000000000004');
    expect(pyFloatRepr(1e16)).toBe('1e+16');
    expect(pyFloatRepr(1e15)).toBe('1000000000000000.0');
    expect(pyFloatRepr(123456789012345678)).toBe('1.2345678901234568e+17');
    expect(pyFloatRepr(0.0001)).toBe('0.0001');
    expect(pyFloatRepr(0.00001)).toBe('1e-05');
    expect(pyFloatRepr(1.5e-7)).toBe('1.5e-07');
    expect(pyFloatRepr(-0)).toBe('-0.0');
    expect(pyFloatRepr(-2.5)).toBe('-2.5');
  });

  test('json.dumps: default separators, ensure_ascii, sort_keys, Maps keep their order', () => {
    expect(pyJson({ b: [1, 2.5], a: null, c: 'é"\n', d: true })).toBe('{"b": [1.0, 2.5], "a": null, "c": "\\u00e9\\"\\n", "d": true}');
    expect(pyJson({ b: 1, a: { d: [], c: {} } }, { sortKeys: true })).toBe('{"a": {"c": {}, "d": []}, "b": 1.0}');
    expect(canonicalJson({ b: 1, a: 'x' })).toBe('{"a":"x","b":1.0}');
    expect(pyJson(new Map([['9', 1], ['10', 2]]))).toBe('{"9": 1.0, "10": 2.0}');
  });
});
