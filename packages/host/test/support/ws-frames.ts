import fc from 'fast-check';
import type { TSchema } from '@sinclair/typebox';
import { CLIENT_MESSAGES } from '../../src/server/ws/messages';

/**
 * Schema-driven client frames for the live protocol (src/server/ws/messages.ts), as fast-check
 * arbitraries: valid messages of every type in CLIENT_MESSAGES, built from each message's own
 * schema (with ids, revisions and ops that exist or fit, so that many reach past validation), those
 * messages with one thing wrong (a field missing, of another type, an extra one, a huge string,
 * deep nesting, a negative or fractional revision, a requestId of an odd shape), and frames that
 * are not messages at all (text that is not JSON, JSON that is not an object, binary frames,
 * unknown types).
 */

/** Stands for a resource's current revision minus N, resolved when the frame is sent (`HEAD(0)` is the head). */
export const HEAD = (back = 0): string => `\u0000head-${back}`;
const HEAD_PATTERN = /^\u0000head-(\d+)$/;
/** A string replaced, in the frame's JSON text, by raw text (nesting too deep to build as a value). */
const SPLICE = '\u0000splice';

export interface FrameContext {
  readonly resourceIds: readonly string[];
  readonly taskIds: readonly string[];
  /** Operators to name in writes (the socket's own, others, the owner's agents). */
  readonly operators: readonly string[];
}

/** One client frame, before its revisions are resolved. */
export type FrameSpec =
  | { readonly kind: 'message'; readonly value: unknown; readonly splice?: string; readonly mutated: string | null }
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'binary'; readonly bytes: Uint8Array };

/** What goes on the wire: text (JSON or not) or bytes. */
export type Wire = { readonly text: string } | { readonly bytes: Uint8Array };

const NASTY = ['', ' ', '__proto__', 'constructor', 'toString', 'hasOwnProperty', '..', '\u0000', '\n', 'é', '✓ ☃ 𝄞', '\uD800', '\u202E', 'null', '-1', '1e309', 'NaN', '<script>alert(1)</script>', '${process.exit()}'];

const nasty = fc.constantFrom(...NASTY);
const json = fc.jsonValue({ maxDepth: 3 });

/** A value of another type than most fields want. */
const wrongValue = fc.oneof(
  fc.constantFrom<unknown>(null, true, false, 0, -1, 0.5, -0.5, 1.5, 2 ** 53, 2 ** 60, 1e308, -1e308, '', '0', '1', [], {}, ['x'], { x: 1 }),
  nasty,
  json,
);

/** A revision that the schema refuses: negative, fractional, out of range, of another type. */
const badRevision = fc.oneof(fc.integer({ min: -1000, max: -2 }), fc.constantFrom(-1, 0.5, 1.5, -0.5, 1e-9, 2 ** 53 + 2, 1e308, '0', '1', null, true, [0], { revision: 0 }), fc.double({ noNaN: true }));

/** requestIds the schema allows (1 to 200 characters), and odd ones (empty, too long, another type). */
const requestId = fc.oneof({ weight: 6, arbitrary: fc.string({ minLength: 1, maxLength: 12 }) }, { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }) }, { weight: 1, arbitrary: fc.constantFrom('x'.repeat(200), '\uD800', '__proto__') });
const oddRequestId = fc.oneof(requestId, fc.constantFrom<unknown>('', 'x'.repeat(201), 'x'.repeat(5000), 0, -1, 1.5, null, true, [], ['r1'], { id: 'r1' }));

const textOp = fc.oneof(
  fc.record({ type: fc.constantFrom('set', 'append'), text: fc.string({ maxLength: 20 }) }),
  fc.record({ type: fc.constant('insert'), at: fc.integer({ min: -1, max: 50 }), text: fc.string({ maxLength: 5 }) }),
  fc.record({ type: fc.constant('delete'), at: fc.integer({ min: -1, max: 50 }), length: fc.integer({ min: -1, max: 50 }) }),
);

/** An arbitrary for one schema (a property of a message), with values that exist for the names that look them up. */
function fromSchema(schema: TSchema, name: string, context: FrameContext): fc.Arbitrary<unknown> {
  const known = (values: readonly string[]): fc.Arbitrary<unknown> =>
    values.length > 0 ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...values) }, { weight: 1, arbitrary: generic(schema) }) : generic(schema);
  switch (name) {
    case 'resourceId':
      return known(context.resourceIds);
    case 'taskId':
      return known(context.taskIds);
    case 'operator':
      return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...context.operators) }, { weight: 1, arbitrary: generic(schema) });
    case 'baseRevision':
      return fc.oneof({ weight: 4, arbitrary: fc.constant(HEAD()) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 3 }).map((back) => HEAD(back)) }, { weight: 1, arbitrary: generic(schema) });
    case 'sinceRevision':
      // Mostly near the head: a catch-up from 0 replays the whole history.
      return fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 0, max: 3 }).map((back) => HEAD(back)) }, { weight: 1, arbitrary: fc.constantFrom(-1, 0, 1) }, { weight: 1, arbitrary: fc.integer({ min: 2, max: 1000 }) });
    case 'op':
      return fc.oneof({ weight: 4, arbitrary: textOp }, { weight: 1, arbitrary: json });
    case 'requestId':
      return requestId;
    case 'idempotencyKey':
      // A small alphabet, so that keys repeat: a repeated commit is answered with the first one's revision.
      return fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd'), minLength: 1, maxLength: 6 });
    default:
      return generic(schema);
  }
}

/** What the schema allows, read from its JSON Schema keywords. */
function generic(schema: TSchema): fc.Arbitrary<unknown> {
  const s = schema as Record<string, unknown>;
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  const alternatives = (s.anyOf ?? s.oneOf) as TSchema[] | undefined;
  if (alternatives) return fc.oneof(...alternatives.map(generic));
  switch (s.type) {
    case 'string': {
      if (typeof s.pattern === 'string') return fc.stringMatching(new RegExp(s.pattern));
      const minLength = typeof s.minLength === 'number' ? s.minLength : 0;
      return fc.string({ minLength, maxLength: Math.min(typeof s.maxLength === 'number' ? s.maxLength : 40, minLength + 40) });
    }
    case 'integer':
      return fc.integer({ min: typeof s.minimum === 'number' ? s.minimum : -1000, max: typeof s.maximum === 'number' ? s.maximum : 1000 });
    case 'number':
      return fc.double({ min: typeof s.minimum === 'number' ? s.minimum : -1e6, max: typeof s.maximum === 'number' ? s.maximum : 1e6, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(generic((s.items ?? {}) as TSchema), { maxLength: 3 });
    case 'object':
      return objectOf(schema, () => undefined);
    default:
      return json;
  }
}

function objectOf(schema: TSchema, override: (name: string, property: TSchema) => fc.Arbitrary<unknown> | undefined): fc.Arbitrary<Record<string, unknown>> {
  const properties = ((schema as Record<string, unknown>).properties ?? {}) as Record<string, TSchema>;
  const required = ((schema as Record<string, unknown>).required ?? []) as string[];
  const record = Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, override(name, property) ?? generic(property)]));
  return fc.record(record, { requiredKeys: required }) as fc.Arbitrary<Record<string, unknown>>;
}

/** A valid message of each type in CLIENT_MESSAGES, built from that type's schema; commits (the writes) three times as often. */
export function validMessage(context: FrameContext): fc.Arbitrary<Record<string, unknown>> {
  return fc.oneof(
    ...Object.entries(CLIENT_MESSAGES).map(([type, schema]) => ({
      weight: type === 'commit' ? 3 : 1,
      arbitrary: objectOf(schema as TSchema, (name, property) => fromSchema(property, name, context)),
    })),
  );
}

/** Deeply nested JSON text: arrays or objects, a few levels to many thousands. */
const deep = fc.tuple(fc.constantFrom(10, 100, 1000, 10_000, 50_000), fc.boolean()).map(([depth, arrays]) => (arrays ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)));

/** A valid message with one thing wrong; `mutated` says what. */
function mutatedMessage(context: FrameContext): fc.Arbitrary<FrameSpec> {
  return fc.tuple(validMessage(context), fc.nat(), fc.integer({ min: 0, max: 9 }), wrongValue, badRevision, oddRequestId, nasty, json, deep, fc.constantFrom(10_000, 70_000, 200_000)).map(
    ([message, pick, what, wrong, revision, id, name, extra, nested, size]): FrameSpec => {
      const copy: Record<string, unknown> = { ...message };
      const keys = Object.keys(copy);
      const key = keys[pick % keys.length]!;
      switch (what) {
        case 0:
          delete copy[key];
          return { kind: 'message', value: copy, mutated: `missing ${key}` };
        case 1:
          copy[key] = wrong;
          return { kind: 'message', value: copy, mutated: `wrong ${key}` };
        case 2:
          // Defined, not assigned: `__proto__` becomes a field of the frame, not its prototype.
          Object.defineProperty(copy, name === '' ? 'extra' : name, { value: extra, enumerable: true, writable: true, configurable: true });
          return { kind: 'message', value: copy, mutated: `extra ${name}` };
        case 3: {
          // A huge string where a string goes (the op's text is one), or beside the fields.
          const huge = 'x'.repeat(size);
          const op = copy.op as Record<string, unknown> | undefined;
          if (op && typeof op === 'object' && typeof op.text === 'string') copy.op = { ...op, text: huge };
          else copy[typeof copy[key] === 'string' ? key : 'padding'] = huge;
          return { kind: 'message', value: copy, mutated: `huge string ${size}` };
        }
        case 4:
          copy[key === 'type' ? 'op' : key] = SPLICE;
          return { kind: 'message', value: copy, splice: nested, mutated: `deep ${key === 'type' ? 'op' : key}` };
        case 5:
          copy.op = { type: 'append', text: 'x', nested: SPLICE };
          return { kind: 'message', value: copy, splice: nested, mutated: 'deep op field' };
        case 6:
          copy[pick % 2 === 0 ? 'baseRevision' : 'sinceRevision'] = revision;
          return { kind: 'message', value: copy, mutated: 'bad revision' };
        case 7:
          copy.requestId = id;
          return { kind: 'message', value: copy, mutated: 'odd requestId' };
        case 8:
          copy.type = pick % 3 === 0 ? wrong : name === '' ? 'dance' : name;
          return { kind: 'message', value: copy, mutated: 'unknown type' };
        default:
          copy.type = String(copy.type).toUpperCase();
          return { kind: 'message', value: copy, mutated: 'type in capitals' };
      }
    },
  );
}

/** Frames that are not messages: text that is not JSON, JSON that is not an object, bytes. */
const notAMessage: fc.Arbitrary<FrameSpec> = fc.oneof(
  fc.string({ maxLength: 40 }).map((text): FrameSpec => ({ kind: 'text', text })),
  fc.json({ maxDepth: 3 }).map((text): FrameSpec => ({ kind: 'text', text: text.slice(0, Math.max(0, text.length - 1)) })),
  fc.constantFrom('{', '}', 'nul', '', ' ', '{"type":"subscribe"', '{"type":"subscribe"}{}', '\u0000', '1e999', '"\\u12"', '{"__proto__":{"type":"commit"}}', '{"type":"subscribe","type":"commit"}').map((text): FrameSpec => ({ kind: 'text', text })),
  json.map((value): FrameSpec => ({ kind: 'message', value, mutated: 'any JSON' })),
  fc.uint8Array({ maxLength: 64 }).map((bytes): FrameSpec => ({ kind: 'binary', bytes })),
);

/** Any client frame: mostly valid messages, often nearly valid ones, sometimes nothing like one. */
export function clientFrame(context: FrameContext): fc.Arbitrary<FrameSpec> {
  return fc.oneof(
    { weight: 10, arbitrary: validMessage(context).map((value): FrameSpec => ({ kind: 'message', value, mutated: null })) },
    { weight: 7, arbitrary: mutatedMessage(context) },
    { weight: 2, arbitrary: notAMessage },
    // A valid message sent as a binary frame.
    { weight: 1, arbitrary: validMessage(context).map((value): FrameSpec => ({ kind: 'binary', bytes: Buffer.from(JSON.stringify(value)) })) },
  );
}

/** The frame as sent: revisions resolved against the heads of the moment, raw text spliced in. */
export function toWire(spec: FrameSpec, headOf: (resourceId: unknown) => number): Wire {
  if (spec.kind === 'text') return { text: spec.text };
  if (spec.kind === 'binary') return { bytes: spec.bytes };
  let value = spec.value;
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    for (const field of ['baseRevision', 'sinceRevision']) {
      const match = typeof copy[field] === 'string' ? HEAD_PATTERN.exec(copy[field]) : null;
      if (match) copy[field] = Math.max(field === 'sinceRevision' ? -1 : 0, headOf(copy.resourceId) - Number(match[1]));
    }
    value = copy;
  }
  const text = JSON.stringify(value);
  return { text: spec.splice === undefined ? text : text.replace(JSON.stringify(SPLICE), spec.splice) };
}
