import { CoworkError, isCoworkError } from '../errors';
import { callPlugin, callPluginAsync, type RegisteredKind } from '../plugins/registry';
import { schemaProblems } from '../util/json-schema';
import type { Json } from '../store/records';
import type { ResourceReader } from '../plugins/types';
import { serialiseChecked } from './input-checks';
import { opSchemaFailure } from './op-schema-failure';

/**
 * The kind's side of a commit: op validation (schema, then the kind's own checks) and op
 * application (the kind's `applyOp`, then the content schema and size limit).
 */

/** An op that passed the kind's checks, with its JSON text (kept, so that it is not made again). */
export interface CheckedOp {
  readonly op: Json;
  readonly text: string;
}

/** Validates an op against the kind without looking at any content. */
export function validateOp(registered: RegisteredKind, op: unknown, maxBytes: number): CheckedOp {
  const text = serialiseChecked(op, maxBytes, 'op');
  const { kind, plugin } = registered;
  if (!registered.validateOpShape(op)) {
    const { message, problems } = opSchemaFailure(kind.name, kind.opSchema, op, registered.validateOpShape);
    throw new CoworkError('invalid_op', message, { kind: kind.name, problems });
  }
  const problems = kind.validateOp ? callPlugin(plugin, 'validateOp', () => kind.validateOp!(op as Json)) : [];
  if (problems.length > 0) {
    throw new CoworkError('invalid_op', `the ${kind.name} kind rejected the op: ${problems.join('; ')}`, {
      kind: kind.name,
      problems,
    });
  }
  return { op: op as Json, text };
}

/** A content with its JSON text, made once and stored as it is. */
export interface SerialisedContent {
  readonly content: Json;
  readonly serialized: string;
}

/**
 * Checks a whole content from outside the kind's own ops (given on create, imported, reported by an
 * external application) against the kind's schema and the size limit; with its JSON text.
 */
export function validateContent(registered: RegisteredKind, content: unknown, maxBytes: number): SerialisedContent {
  return validateSerialised(registered, content, maxBytes, false);
}

function validateSerialised(registered: RegisteredKind, content: unknown, maxBytes: number, trusted: boolean): SerialisedContent {
  const serialized = serialiseChecked(content, maxBytes, 'content', trusted);
  if (!registered.validateContent(content)) {
    throw new CoworkError('invalid_content', `the content does not match the ${registered.kind.name} content schema`, {
      kind: registered.kind.name,
      problems: schemaProblems(registered.validateContent),
    });
  }
  return { content: content as Json, serialized };
}

/** Applies ops in order; the result is checked like any content, and comes with its JSON text. Throws without side effects. */
export function applyOps(registered: RegisteredKind, content: Json, ops: readonly Json[], maxBytes: number): SerialisedContent {
  let next = content;
  for (const op of ops) {
    next = callPlugin(registered.plugin, 'applyOp', () => registered.kind.applyOp(next, op));
  }
  try {
    return validateSerialised(registered, next, maxBytes, true);
  } catch (error) {
    if (isCoworkError(error) && error.code === 'invalid_content') {
      // The ops were valid alone but produce content the kind does not allow: the op is at fault.
      throw new CoworkError('invalid_op', `applying the op would make invalid content: ${error.message}`, error.details);
    }
    throw error;
  }
}

/**
 * Runs the kind's `checkContent` (if any) on a content; throws `code` with the problems. The
 * caller decides the code: a content given on create is `invalid_content`, one an op would make
 * is `invalid_op`.
 */
export async function checkContentDomain(registered: RegisteredKind, content: Json, code: 'invalid_content' | 'invalid_op', resources: ResourceReader): Promise<void> {
  const check = registered.kind.checkContent;
  if (!check) return;
  const problems = await callPluginAsync(registered.plugin, 'checkContent', async () => check.call(registered.kind, content, { signal: new AbortController().signal, resources }));
  if (problems.length === 0) return;
  const what = code === 'invalid_op' ? 'the op would make content' : 'the content';
  throw new CoworkError(code, `${what} the ${registered.kind.name} kind refuses: ${problems.join('; ')}`, { kind: registered.kind.name, problems: [...problems] });
}
