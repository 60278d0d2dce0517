import { opShape, rejectOp, type Json } from '@cowork/host';
import { FEATURE_ID_SCHEMA, FEATURE_SCHEMA, NUM_SCHEMA, PARAMETER_NAME_SCHEMA, type Feature, type Part } from './content';
import { dimensionsOf, writeDimension } from './dimensions';
import type { Num } from './expression';
import { unstorableName } from './limits';
import { checkPart, referencesOf, usedParameters } from './structure';

/**
 * Ops of `cad.part`. Parameters are addressed by name and features by their stable id, so that a
 * person changing one dimension and an agent adding a feature make separate ops that both apply
 * whichever lands first. Each op's result must pass the structural checks (./structure.ts);
 * geometry (a fillet too large for its edges) is judged by the kernel, in the kind's `checkContent`.
 * - `set_parameter` creates or changes a named parameter;
 * - `delete_parameter` removes one no feature uses;
 * - `add_feature` appends a feature, or inserts it right after feature `after`;
 * - `edit_feature` replaces some fields of a feature (never its id or type);
 * - `set_dimension` sets one number (or point) of a feature by its name (`width`, `at`,
 *   `sketch.profile.radius`): what a person edits in the page; a number typed as text is a number;
 * - `remove_feature` removes a feature no later feature uses.
 */
export type PartOp =
  | { type: 'set_parameter'; name: string; value: number }
  | { type: 'delete_parameter'; name: string }
  | { type: 'add_feature'; feature: Feature; after?: string }
  | { type: 'edit_feature'; id: string; set: { [field: string]: Json } }
  | { type: 'set_dimension'; id: string; dimension: string; value: Num | Num[] }
  | { type: 'remove_feature'; id: string };

export const PART_OP_SCHEMA = {
  oneOf: [
    opShape('set_parameter', { name: PARAMETER_NAME_SCHEMA, value: { type: 'number' } }),
    opShape('delete_parameter', { name: PARAMETER_NAME_SCHEMA }),
    opShape('add_feature', { feature: FEATURE_SCHEMA, after: FEATURE_ID_SCHEMA }, ['feature']),
    opShape('edit_feature', { id: FEATURE_ID_SCHEMA, set: { type: 'object', minProperties: 1 } }),
    opShape('set_dimension', { id: FEATURE_ID_SCHEMA, dimension: { type: 'string', minLength: 1, maxLength: 64 }, value: { anyOf: [NUM_SCHEMA, { type: 'array', items: NUM_SCHEMA, minItems: 2, maxItems: 3 }] } }),
    opShape('remove_feature', { id: FEATURE_ID_SCHEMA }),
  ],
} as const;

/** Checks that need no content: an edit may not change what a feature is. */
export function validatePartOp(op: PartOp): string[] {
  if (op.type === 'set_parameter' && unstorableName(op.name)) return [`parameter name ${JSON.stringify(op.name)} is reserved; choose another name`];
  if (op.type !== 'edit_feature') return [];
  return ['id', 'type'].filter((field) => Object.hasOwn(op.set, field)).map((field) => `edit_feature cannot change a feature's ${field}; remove it and add a new one`);
}

/** Applies an op without mutating `part`; throws `rejectOp` when the op does not fit this part. */
export function applyPartOp(part: Part, op: PartOp): Part {
  switch (op.type) {
    case 'set_parameter': {
      const [problem] = validatePartOp(op);
      if (problem) throw rejectOp(problem, { name: op.name });
      return checkPart({ ...part, parameters: parametersWith(part.parameters, op.name, op.value) });
    }
    case 'delete_parameter': {
      if (!Object.hasOwn(part.parameters, op.name)) throw rejectOp(`no parameter ${JSON.stringify(op.name)}; the part has ${names(part)}`, { name: op.name });
      const users = usedParameters(part).get(op.name);
      if (users) throw rejectOp(`parameter ${op.name} is used by features ${[...new Set(users)].join(', ')}; change them first`, { name: op.name });
      const parameters = parametersWith(part.parameters);
      delete parameters[op.name];
      return { ...part, parameters };
    }
    case 'add_feature': {
      if (part.features.some((f) => f.id === op.feature.id)) throw rejectOp(`a feature with id ${JSON.stringify(op.feature.id)} already exists`, { featureId: op.feature.id });
      const at = op.after === undefined ? part.features.length : indexOf(part, op.after) + 1;
      const features = [...part.features];
      features.splice(at, 0, op.feature);
      return checkPart({ ...part, features });
    }
    case 'edit_feature': {
      const at = indexOf(part, op.id);
      const edited = { ...part.features[at], ...op.set } as Feature;
      return checkPart({ ...part, features: part.features.map((f, i) => (i === at ? edited : f)) });
    }
    case 'set_dimension': {
      const at = indexOf(part, op.id);
      const edited = withDimension(part.features[at]!, op.dimension, op.value);
      return checkPart({ ...part, features: part.features.map((f, i) => (i === at ? edited : f)) });
    }
    case 'remove_feature': {
      const at = indexOf(part, op.id);
      const user = part.features.find((f) => referencesOf(f).includes(op.id));
      if (user) throw rejectOp(`feature ${op.id} is used by feature ${user.id}; remove or change ${user.id} first`, { featureId: op.id });
      const features = part.features.filter((_, i) => i !== at);
      return checkPart({ ...part, features });
    }
  }
}

/** The feature with one dimension set, refused when it has no such dimension or the value has the wrong shape. */
function withDimension(feature: Feature, name: string, value: Num | Num[]): Feature {
  const dimensions = dimensionsOf(feature);
  const dimension = dimensions.find((d) => d.path === name);
  const where = `feature ${feature.id} (${feature.type})`;
  if (!dimension) {
    throw rejectOp(`${where} has no dimension ${JSON.stringify(name)}; it has ${dimensions.map((d) => d.path).join(', ') || 'none'}`, { featureId: feature.id });
  }
  const count = Array.isArray(value) ? value.length : 1;
  if (count !== (dimension.size ?? 1)) {
    throw rejectOp(`${where}: ${name} takes ${dimension.size ? `${dimension.size} numbers` : 'one number'}, not ${count}`, { featureId: feature.id });
  }
  return writeDimension(feature, name, Array.isArray(value) ? value.map(plainNumber) : plainNumber(value));
}

/** "12.5" typed in a text field is the number 12.5; an expression stays text. */
function plainNumber(value: Num): Num {
  return typeof value === 'string' && /^\s*[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?\s*$/i.test(value) ? Number(value) : value;
}

/**
 * A copy of the parameters (with `name` set) in an object without a prototype: a person names these
 * keys, and on a plain object `constructor` or `toString` would read as inherited functions.
 */
function parametersWith(parameters: Part['parameters'], name?: string, value?: number): Part['parameters'] {
  const copy: Part['parameters'] = Object.assign(Object.create(null) as Part['parameters'], parameters);
  if (name !== undefined) copy[name] = value!;
  return copy;
}

function indexOf(part: Part, id: string): number {
  const at = part.features.findIndex((f) => f.id === id);
  if (at < 0) {
    const ids = part.features.map((f) => f.id).join(', ') || 'none';
    throw rejectOp(`no feature with id ${JSON.stringify(id)}; the part's features are ${ids}`, { featureId: id });
  }
  return at;
}

function names(part: Part): string {
  const all = Object.keys(part.parameters);
  return all.length === 0 ? 'no parameters' : `parameters ${all.join(', ')}`;
}
