import type { Host } from '../host';
import { jsonOutput, objectSchema, type McpTool } from './tool';
import { resourceUri } from './uris';

const ID = { type: 'string', minLength: 1, maxLength: 200 };

/** Exports through the kind's contract, as `GET /api/resources/:id/export/:format` does. */
export function exportTools(host: Host): McpTool[] {
  return [
    {
      name: 'list_export_formats',
      description: "The formats a resource's kind exports to (pptx, pdf, step, ...).",
      inputSchema: objectSchema({ resourceId: ID }, ['resourceId']),
      async run(args) {
        return jsonOutput({ formats: await host.exports.formats(args.resourceId as string) });
      },
    },
    {
      name: 'export_resource',
      description: 'Export a resource (its newest revision, or revision) to one of its formats; the file comes back as an embedded resource (base64).',
      inputSchema: objectSchema({ resourceId: ID, format: { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]{0,31}$' }, revision: { type: 'integer', minimum: 0 } }, ['resourceId', 'format']),
      async run(args, call) {
        const id = args.resourceId as string;
        const result = await host.exports.export(id, args.format as string, { revision: args.revision as number | undefined, signal: call.signal });
        const info = { resourceId: id, revision: result.revision, fileName: result.fileName, mediaType: result.mediaType, bytes: result.data.byteLength };
        return {
          content: [
            { type: 'text', text: JSON.stringify(info) },
            { type: 'resource', resource: { uri: resourceUri(id, result.revision), mimeType: result.mediaType, blob: Buffer.from(result.data).toString('base64') } },
          ],
          structuredContent: info,
        };
      },
    },
  ];
}
