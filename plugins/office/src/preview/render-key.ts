import { createHash } from 'node:crypto';

/**
 * The key of a content's render: its file format and a hash of its JSON (one revision's content
 * never changes). A deck with pictures is megabytes of JSON, so this runs in an office worker
 * (../offload), not on the host's event loop.
 */
export function renderKey(extension: string, content: unknown): string {
  return `${extension}:${createHash('sha256').update(JSON.stringify(content)).digest('hex')}`;
}
