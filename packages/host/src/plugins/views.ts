import type { Json } from '../store/records';
import { opShape } from './op-shape';

/**
 * How a kind shows a content to people in the web page: a list of plain blocks the page renders
 * itself (as text, never as HTML), so a plugin cannot inject script into the page. Pictures and
 * frames point at same-origin URLs the host serves (an export, a live app), never elsewhere.
 */
export type ViewBlock =
  | { readonly type: 'heading'; readonly text: string; readonly level?: 1 | 2 | 3 }
  | { readonly type: 'paragraph'; readonly text: string }
  | { readonly type: 'list'; readonly items: readonly string[]; readonly ordered?: boolean }
  | { readonly type: 'code'; readonly text: string }
  | { readonly type: 'table'; readonly rows: readonly (readonly string[])[]; readonly header?: readonly string[] }
  | { readonly type: 'image'; readonly url: string; readonly alt: string }
  | { readonly type: 'frame'; readonly url: string; readonly title: string }
  /** A 3D model (GLB, usually `context.exportUrl('glb')`) the page shows with three.js, with a download link. */
  | { readonly type: 'model'; readonly url: string; readonly alt: string }
  /**
   * A text a person may edit in the page (a web app's file): saving commits `op` with the edited
   * text put at `op[field]`, on the revision shown, through the ordinary commit (and its checks).
   */
  | { readonly type: 'editable'; readonly label: string; readonly text: string; readonly op: { readonly [key: string]: Json }; readonly field: string };

export interface ViewContext {
  readonly resourceId: string;
  readonly revision: number;
  /** The same-origin URL of one of the kind's exports of this revision (for `image`, `frame` and `model`). */
  exportUrl(format: string): string;
}

/** The JSON Schema every view block must match; URLs must be same-origin paths. */
export const VIEW_BLOCK_SCHEMA = {
  oneOf: [
    opShape('heading', { text: { type: 'string' }, level: { enum: [1, 2, 3] } }, ['text']),
    opShape('paragraph', { text: { type: 'string' } }, ['text']),
    opShape('list', { items: { type: 'array', items: { type: 'string' } }, ordered: { type: 'boolean' } }, ['items']),
    opShape('code', { text: { type: 'string' } }, ['text']),
    opShape('table', { rows: { type: 'array', items: { type: 'array', items: { type: 'string' } } }, header: { type: 'array', items: { type: 'string' } } }, ['rows']),
    opShape('image', { url: { type: 'string', pattern: '^/(?!/)' }, alt: { type: 'string' } }, ['url', 'alt']),
    opShape('frame', { url: { type: 'string', pattern: '^/(?!/)' }, title: { type: 'string' } }, ['url', 'title']),
    opShape('model', { url: { type: 'string', pattern: '^/(?!/)' }, alt: { type: 'string' } }, ['url', 'alt']),
    opShape('editable', { label: { type: 'string' }, text: { type: 'string' }, op: { type: 'object' }, field: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]{0,63}$' } }, ['label', 'text', 'op', 'field']),
  ],
} as const;
