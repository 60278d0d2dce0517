import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { rejectOp } from '../plugins/define-plugin';
import type { ExternalObservation, ExternalSession } from '../plugins/external';
import type { ResourceKind } from '../plugins/types';
import type { Json } from '../store/records';
import type { McpConnection } from './connection';
import { resourceKindName } from './names';

/** One MCP resource as the host records it: its URI and what the server last answered for it. */
export interface McpResourceContent {
  readonly uri: string;
  readonly contents: Json[];
  [key: string]: Json;
}

type RefreshOp = { readonly refresh: true };

/**
 * A server's resources as a resource kind with `external` revisions: the server owns the content;
 * the host records what it reads. Create one with `{"uri": "..."}`; a revision is recorded when a
 * `notifications/resources/updated` arrives for its URI (where the server offers subscribe), on the
 * host's external poll, or on a `{"refresh": true}` op.
 */
export function mcpResourceKind(server: string, connection: McpConnection, onOpen: (resourceId: string, uri: string) => () => void): ResourceKind {
  const kind: ResourceKind<McpResourceContent, RefreshOp> = {
    name: resourceKindName(server),
    description: `A resource of the MCP server ${server}, read through its connection (revisions follow the server's updates). Create with {"uri": "<resource uri>"}.`,
    revisionSemantics: 'external',
    contentSchema: {
      type: 'object',
      properties: { uri: { type: 'string', minLength: 1 }, contents: { type: 'array' } },
      required: ['uri'],
    },
    opSchema: { type: 'object', properties: { refresh: { const: true } }, required: ['refresh'], additionalProperties: false },
    initialContent: () => ({ uri: 'about:blank', contents: [] }),
    applyOp: (content, op) => {
      if (op.refresh !== true) throw rejectOp('MCP resources are read-only; the only op is {"refresh": true}');
      return content;
    },
    summarize: (content) => `${content.uri}: ${(content.contents ?? []).length} part(s)${textOf(content).length ? `, ${textOf(content).slice(0, 200)}` : ''}`,
    diff: (before, after) => (JSON.stringify(before.contents) === JSON.stringify(after.contents) ? 'no change' : `${after.uri} changed on the server`),
    external: {
      async open(resource): Promise<ExternalSession<McpResourceContent, RefreshOp>> {
        const uri = resource.content.uri;
        await connection.connect();
        const stop = onOpen(resource.id, uri);
        await connection.subscribe(uri).catch(() => false);
        const observe = async (): Promise<ExternalObservation<McpResourceContent>> => ({ content: fromRead(uri, await connection.readResource(uri)) });
        return { observe, apply: observe, close: async () => stop() };
      },
    },
  };
  return kind as unknown as ResourceKind;
}

function fromRead(uri: string, result: ReadResourceResult): McpResourceContent {
  return {
    uri,
    contents: result.contents.map((part): Json => {
      const p = part as { uri: string; mimeType?: string; text?: string; blob?: string };
      return p.text !== undefined ? { uri: p.uri, mimeType: p.mimeType ?? null, text: p.text } : { uri: p.uri, mimeType: p.mimeType ?? null, blob: p.blob ?? '' };
    }),
  };
}

function textOf(content: McpResourceContent): string {
  return (content.contents ?? []).map((c) => (c && typeof c === 'object' && !Array.isArray(c) && typeof c.text === 'string' ? c.text : '')).join('\n');
}
