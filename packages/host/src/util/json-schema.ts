import type { ValidateFunction } from 'ajv';

/** A JSON Schema (draft 2020-12 subset that Ajv accepts), as a plain object. */
export type JsonSchema = { readonly [key: string]: unknown };

/** Ajv's errors as short sentences a caller can act on. */
export function schemaProblems(validate: ValidateFunction): string[] {
  return (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`.trim());
}
