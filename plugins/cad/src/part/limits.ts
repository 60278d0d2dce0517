/**
 * The numbers OpenCascade can build with, checked before any content reaches the kernel. OCCT
 * works to an absolute tolerance of 1e-7 mm (Precision::Confusion): a body far below it is
 * degenerate, and a boolean with one can loop for ever (a 1e-30 mm sphere fused at a box's corner
 * spun the CAD worker at 100% until the server restarted). Lengths far above any machine lose that
 * tolerance in double precision and make booleans crawl. JSON's `1e999` parses as Infinity, and an
 * expression can divide by zero, so every number must also be finite.
 */
export type Limits = {
  /** The smallest length, radius, fillet, chamfer or extrusion (mm): ten times OCCT's tolerance. */
  minLength: number;
  /** The largest length, and the largest distance of any position from the origin (mm): 1 km. */
  maxLength: number;
};

export const LIMITS: Limits = { minLength: 1e-6, maxLength: 1e6 };

/** A revolve turns at least a thousandth of a degree and at most a full turn; a rotation at most a full turn either way. */
export const MIN_REVOLVE_ANGLE = 1e-3;
export const FULL_TURN = 360;

/** How a number is judged: a size (length, radius), a position or offset, a revolve's angle, a rotation. */
export type Rule = 'length' | 'position' | 'revolve' | 'rotation';

/** The numbers `rule` allows, and their unit: the range a person's input in the page is held to. */
export function ruleRange(rule: Rule, limits: Limits = LIMITS): { min: number; max: number; unit: 'mm' | 'degrees' } {
  switch (rule) {
    case 'length':
      return { min: limits.minLength, max: limits.maxLength, unit: 'mm' };
    case 'position':
      return { min: -limits.maxLength, max: limits.maxLength, unit: 'mm' };
    case 'revolve':
      return { min: MIN_REVOLVE_ANGLE, max: FULL_TURN, unit: 'degrees' };
    case 'rotation':
      return { min: -FULL_TURN, max: FULL_TURN, unit: 'degrees' };
  }
}

/** Why `value` breaks `rule` (a sentence without the field's name), or undefined when it is fine. */
export function rangeProblem(value: number, rule: Rule, limits: Limits = LIMITS): string | undefined {
  if (!Number.isFinite(value)) return `must be a finite number but is ${value}`;
  const { min, max, unit } = ruleRange(rule, limits);
  return value >= min && value <= max ? undefined : `must be from ${min} to ${max} ${unit} but is ${value}`;
}

/**
 * Names a person gives to keys (parameters) that a JavaScript object cannot hold as data:
 * `__proto__` set on a plain object changes its prototype instead of storing a value.
 */
export function unstorableName(name: string): boolean {
  return name === '__proto__';
}
