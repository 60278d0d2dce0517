import type { ErrorObject, ValidateFunction } from 'ajv';

/** A JSON Schema (draft 2020-12 subset that Ajv accepts), as a plain object. */
export type JsonSchema = { readonly [key: string]: unknown };

/** Ajv's errors as short sentences a caller can act on. */
export function schemaProblems(validate: ValidateFunction): string[] {
  return errorProblems(validate.errors ?? []);
}

/** Ajv errors as sentences; a property the schema does not allow is named (Ajv's message leaves it out). */
export function errorProblems(errors: readonly ErrorObject[]): string[] {
  return errors.map((e) => {
    const extra = e.keyword === 'additionalProperties' && typeof e.params.additionalProperty === 'string' ? `: ${JSON.stringify(e.params.additionalProperty)}` : '';
    return `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}${extra}`.trim();
  });
}
