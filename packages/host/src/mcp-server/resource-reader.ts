import { isCoworkError } from '../errors';
import type { Host } from '../host';
import { CURRENT_TEMPLATE, parseResourceUri, resourceUri, REVISION_TEMPLATE } from './uris';

const JSON_TYPE = 'application/json';

/** An MCP error for a resource URI that names nothing: the spec's -32002 "Resource not found". */
export const RESOURCE_NOT_FOUND = -32002;

/** `resources/list`, `resources/read` and `resources/templates/list` over the host's resources. */
export class ResourceReader {
  constructor(private readonly host: Host) {}

  async list(): Promise<{ uri: string; name: string; title: string; description: string; mimeType: string }[]> {
    const resources = await this.host.resources.list({ limit: 1000 });
    return resources.map((r) => ({
      uri: resourceUri(r.id),
      name: r.id,
      title: `${r.kind} ${r.id}`,
      description: `A ${r.kind} resource, at revision ${r.revision}. Read it, or one revision with ${REVISION_TEMPLATE}.`,
      mimeType: JSON_TYPE,
    }));
  }

  templates(): { uriTemplate: string; name: string; description: string; mimeType: string }[] {
    return [
      { uriTemplate: CURRENT_TEMPLATE, name: 'resource', description: 'A shared resource: kind, current revision and content (JSON).', mimeType: JSON_TYPE },
      { uriTemplate: REVISION_TEMPLATE, name: 'resource-revision', description: 'A shared resource as it was at one revision (revisions never change).', mimeType: JSON_TYPE },
    ];
  }

  /** The resource a URI names, at its current revision; `not_found` when there is none. */
  async head(uri: string): Promise<{ resourceId: string; revision: number }> {
    const resource = await this.host.resources.get(parseResourceUri(uri).resourceId);
    return { resourceId: resource.id, revision: resource.revision };
  }

  /** The resource (current, or the revision the URI names) as one JSON text; `not_found` for anything else. */
  async read(uri: string): Promise<{ contents: { uri: string; mimeType: string; text: string }[] }> {
    const parsed = parseResourceUri(uri);
    const resource = await this.host.resources.get(parsed.resourceId);
    const body =
      parsed.revision === undefined
        ? { id: resource.id, kind: resource.kind, revision: resource.revision, content: resource.content }
        : { id: resource.id, kind: resource.kind, revision: parsed.revision, currentRevision: resource.revision, content: await this.host.resources.contentAt(resource.id, parsed.revision) };
    return { contents: [{ uri, mimeType: JSON_TYPE, text: JSON.stringify(body) }] };
  }
}

/** Whether an error means "no such resource or revision" (answered as RESOURCE_NOT_FOUND). */
export function isNotFound(error: unknown): boolean {
  return isCoworkError(error) && (error.code === 'not_found' || error.code === 'invalid_input');
}
