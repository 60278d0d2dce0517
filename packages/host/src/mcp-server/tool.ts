import type { People, Principal } from '../identity/principal';
import type { JsonSchema } from '../util/json-schema';

/** One content block of a tool result (the MCP shapes this server produces). */
export type ToolContent =
  | { type: 'text'; text: string }
  | { type: 'resource'; resource: { uri: string; mimeType: string; blob: string } };

/** A tool result as `tools/call` answers it. */
// A type, not an interface: the SDK's result types need its implicit index signature.
export type ToolOutput = {
  content: ToolContent[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

/** A tool the MCP server offers: the host's own, or a loaded plugin's. */
export interface McpTool {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments (an object); checked before `run`. */
  readonly inputSchema: JsonSchema;
  run(args: Record<string, unknown>, call: McpCall): Promise<ToolOutput>;
}

/** One call: its cancellation, and whose credential made it (the owner over stdio). */
export interface McpCall {
  readonly signal: AbortSignal;
  readonly principal: Principal;
  /** The workspace's people, whom the owner may not act as. */
  readonly people: People;
}

/** A JSON value as a tool result: text for any client, structured content for those that read it. */
export function jsonOutput(value: Record<string, unknown>): ToolOutput {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }], structuredContent: value };
}

/** Builds an object schema: every property listed in `required`, nothing else allowed. */
export function objectSchema(properties: Record<string, JsonSchema>, required: readonly string[] = []): JsonSchema {
  return { type: 'object', properties, required, additionalProperties: false };
}
