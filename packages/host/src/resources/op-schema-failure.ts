import type { ValidateFunction } from 'ajv';
import { errorProblems, schemaProblems } from '../util/json-schema';

/**
 * Why an op failed its kind's op schema, said about the op the caller meant. A kind's op schema is
 * usually `{ oneOf: [opShape('a', …), opShape('b', …)] }`, and Ajv reports the problems of every
 * alternative (some 50 lines for a deck), nearly all about op types the caller never meant. When
 * the op's `type` names one alternative (its `properties.type.const`, as `opShape` makes it), only
 * that alternative's problems are kept; a `type` that names none, or none at all, is said as such
 * with the kind's op types. Other schemas keep Ajv's whole list.
 */
export interface OpSchemaFailure {
  readonly message: string;
  readonly problems: string[];
}

/** Problems named in the message itself (all are in `problems`): enough to act on, short enough to read. */
const MESSAGE_PROBLEMS = 5;

/** `validate` is the kind's compiled `opSchema`, just run on `op` (its `errors` are read). */
export function opSchemaFailure(kindName: string, opSchema: object, op: unknown, validate: ValidateFunction): OpSchemaFailure {
  const general = `the op does not match the ${kindName} op schema`;
  const all = schemaProblems(validate);
  const typed = typedAlternatives(opSchema);
  if (!typed) return { message: general, problems: all };
  const type = isObject(op) ? op.type : undefined;
  const known = `the ${kindName} kind's op types are: ${typed.types.join(', ')}`;
  if (typeof type !== 'string') {
    const problem = `the op has no "type"; ${known}`;
    return { message: `${general}: ${problem}`, problems: [problem] };
  }
  const index = typed.types.indexOf(type);
  if (index === -1) {
    const problem = `unknown op type ${JSON.stringify(type)}; ${known}`;
    return { message: `${general}: ${problem}`, problems: [problem] };
  }
  const prefix = `#/${typed.keyword}/${index}/`;
  const mine = (validate.errors ?? []).filter((e) => e.schemaPath.startsWith(prefix));
  // None of its own: the op matched its alternative and failed elsewhere (a rule beside the oneOf, or a
  // $ref whose paths Ajv reports from the target); the whole list then says more.
  if (mine.length === 0) return { message: general, problems: all };
  const problems = errorProblems(mine);
  const shown = problems.slice(0, MESSAGE_PROBLEMS).join('; ') + (problems.length > MESSAGE_PROBLEMS ? `; and ${problems.length - MESSAGE_PROBLEMS} more` : '');
  return { message: `${general} for type ${JSON.stringify(type)}: ${shown}`, problems };
}

/** The op types of a `oneOf`/`anyOf` whose every alternative fixes `type` to a string, in order; else undefined. */
function typedAlternatives(schema: object): { keyword: 'oneOf' | 'anyOf'; types: string[] } | undefined {
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const alternatives = (schema as Record<string, unknown>)[keyword];
    if (!Array.isArray(alternatives) || alternatives.length === 0) continue;
    const types = alternatives.map(constType);
    if (types.every((t): t is string => t !== undefined)) return { keyword, types };
  }
  return undefined;
}

function constType(alternative: unknown): string | undefined {
  if (!isObject(alternative) || !isObject(alternative.properties) || !isObject(alternative.properties.type)) return undefined;
  const value = alternative.properties.type.const;
  return typeof value === 'string' ? value : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
