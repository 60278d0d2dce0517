/**
 * The JSON Schema of one op type in a kind's `opSchema`: an object whose `type` is the given
 * constant, with the given properties (all required unless `required` says which), and nothing
 * else. A kind's op schema is usually `{ oneOf: [opShape('add', ...), opShape('delete', ...)] }`.
 */
export function opShape(type: string, properties: Record<string, object>, required: string[] = Object.keys(properties)): object {
  return {
    type: 'object',
    properties: { type: { const: type }, ...properties },
    required: ['type', ...required],
    additionalProperties: false,
  };
}
