import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Json } from '../store/records';
import type { ToolResult } from '../plugins/types';

/**
 * An MCP tool result as the model reads it: text as text, structured content as is, and binary
 * parts (images, audio, blobs) as a note of their type and size rather than base64 in the context.
 */
export function toToolResult(result: CallToolResult): ToolResult {
  const parts: Json[] = (result.content ?? []).map((part): Json => {
    switch (part.type) {
      case 'text':
        return { type: 'text', text: part.text };
      case 'image':
      case 'audio':
        return { type: part.type, mimeType: part.mimeType, bytes: Math.floor((part.data.length * 3) / 4) };
      case 'resource_link':
        return { type: 'resource_link', uri: part.uri, name: part.name };
      case 'resource': {
        const r = part.resource as { uri: string; mimeType?: string; text?: string; blob?: string };
        return r.text !== undefined ? { type: 'resource', uri: r.uri, text: r.text } : { type: 'resource', uri: r.uri, mimeType: r.mimeType ?? null, bytes: Math.floor(((r.blob ?? '').length * 3) / 4) };
      }
      default:
        return { type: String((part as { type?: unknown }).type) };
    }
  });
  const content: Json = result.structuredContent !== undefined ? { content: parts, structuredContent: result.structuredContent as Json } : { content: parts };
  return { content, isError: result.isError === true };
}
