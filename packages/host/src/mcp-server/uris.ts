import { CoworkError } from '../errors';

/**
 * The URIs the MCP server gives resources: `cowork://resources/{id}` is the current content,
 * `cowork://resources/{id}/revisions/{n}` one revision, kept forever (revisions are immutable).
 */
export const RESOURCE_URI_PREFIX = 'cowork://resources/';
export const CURRENT_TEMPLATE = 'cowork://resources/{id}';
export const REVISION_TEMPLATE = 'cowork://resources/{id}/revisions/{revision}';

export interface ResourceUri {
  readonly resourceId: string;
  /** Absent: the current revision. */
  readonly revision?: number;
}

export function resourceUri(resourceId: string, revision?: number): string {
  const base = `${RESOURCE_URI_PREFIX}${encodeURIComponent(resourceId)}`;
  return revision === undefined ? base : `${base}/revisions/${revision}`;
}

/** Parses a resource URI; anything else is `not_found` (the spec's "resource not found"). */
export function parseResourceUri(uri: string): ResourceUri {
  const match = uri.startsWith(RESOURCE_URI_PREFIX) ? /^([^/]+)(?:\/revisions\/(0|[1-9]\d{0,15}))?$/.exec(uri.slice(RESOURCE_URI_PREFIX.length)) : null;
  const resourceId = match ? safeDecode(match[1]!) : undefined;
  if (!match || resourceId === undefined) throw new CoworkError('not_found', `no resource has the URI ${JSON.stringify(uri)}`, { uri });
  return match[2] === undefined ? { resourceId } : { resourceId, revision: Number(match[2]) };
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
