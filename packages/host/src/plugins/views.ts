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
  | { readonly type: 'editable'; readonly label: string; readonly text: string; readonly op: { readonly [key: string]: Json }; readonly field: string }
  /**
   * One value a person edits in place (a slide's title, a part's width): saving commits `op` with
   * the value put at `op[field]`, on the revision shown. `input` says how the value is typed and
   * what the op receives: `text` and `textarea` a string, `number` a number (within `min`/`max`),
   * `lines` an array of strings (one per line), `numbers` an array of numbers (typed comma-separated).
   * `label` names the control for screen readers and must be unique within the view. `key`, when
   * given, names the value the field edits for good (the item's id and what of it: `slide s3 title`),
   * unique within the view: the page keeps a person's unsaved edit by it, so the edit stays with its
   * item when items before it come or go and labels that follow position ("Slide 2 title") move.
   * Without it the edit is kept by label.
   */
  | {
      readonly type: 'field';
      readonly label: string;
      readonly key?: string;
      readonly value: FieldValue;
      readonly op: { readonly [key: string]: Json };
      readonly field: string;
      readonly input?: FieldInput;
      readonly min?: number;
      readonly max?: number;
      readonly unit?: string;
    }
  /**
   * A button that commits `op` on the revision shown (add a slide, delete a block, move a feature
   * up). With `inputs`, a small form whose values go into the op at each input's `field` first.
   * `label` names the button and must be unique within the view.
   */
  | { readonly type: 'action'; readonly label: string; readonly op: { readonly [key: string]: Json }; readonly inputs?: readonly ActionInput[] }
  /**
   * A part of the content a person can point at (a slide, a block, a feature, an object), with the
   * blocks that show and edit it. Choosing it saves `selection` as the person's selection, so agents
   * see what the person is looking at. Groups do not nest.
   */
  | { readonly type: 'group'; readonly title: string; readonly selection?: { readonly [key: string]: Json }; readonly blocks: readonly ViewBlock[] };

export type FieldInput = 'text' | 'textarea' | 'number' | 'lines' | 'numbers';
export type FieldValue = string | number | readonly string[] | readonly number[];

export interface ActionInput {
  readonly field: string;
  readonly label: string;
  readonly input?: FieldInput;
  readonly value?: FieldValue;
}

export interface ViewContext {
  readonly resourceId: string;
  readonly revision: number;
  /**
   * The same-origin URL of one of the kind's exports of this revision (for `image`, `frame` and
   * `model`). A `frame` needs `{inline: true}`: an export is otherwise answered as a download that
   * no page may frame; inline, it is shown in place, sandboxed without scripts.
   */
  exportUrl(format: string, options?: { readonly inline?: boolean }): string;
}

/** A top-level key of an op, where an edited value goes. */
const OP_FIELD = { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]{0,63}$' } as const;
const FIELD_INPUT = { enum: ['text', 'textarea', 'number', 'lines', 'numbers'] } as const;
const FIELD_VALUE = {
  anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'array', items: { type: 'string' } }, { type: 'array', items: { type: 'number' } }],
} as const;

const INTERACTIVE_BLOCK_SCHEMAS = [
  opShape(
    'field',
    {
      label: { type: 'string', minLength: 1 },
      key: { type: 'string', minLength: 1, maxLength: 200 },
      value: FIELD_VALUE,
      op: { type: 'object' },
      field: OP_FIELD,
      input: FIELD_INPUT,
      min: { type: 'number' },
      max: { type: 'number' },
      unit: { type: 'string' },
    },
    ['label', 'value', 'op', 'field'],
  ),
  opShape(
    'action',
    {
      label: { type: 'string', minLength: 1 },
      op: { type: 'object' },
      inputs: {
        type: 'array',
        maxItems: 20,
        items: {
          type: 'object',
          properties: { field: OP_FIELD, label: { type: 'string', minLength: 1 }, input: FIELD_INPUT, value: FIELD_VALUE },
          required: ['field', 'label'],
          additionalProperties: false,
        },
      },
    },
    ['label', 'op'],
  ),
];

/** Every block but `group`, which holds these. URLs must be same-origin paths. */
const LEAF_BLOCK_SCHEMAS = [
  opShape('heading', { text: { type: 'string' }, level: { enum: [1, 2, 3] } }, ['text']),
  opShape('paragraph', { text: { type: 'string' } }, ['text']),
  opShape('list', { items: { type: 'array', items: { type: 'string' } }, ordered: { type: 'boolean' } }, ['items']),
  opShape('code', { text: { type: 'string' } }, ['text']),
  opShape('table', { rows: { type: 'array', items: { type: 'array', items: { type: 'string' } } }, header: { type: 'array', items: { type: 'string' } } }, ['rows']),
  opShape('image', { url: { type: 'string', pattern: '^/(?!/)' }, alt: { type: 'string' } }, ['url', 'alt']),
  opShape('frame', { url: { type: 'string', pattern: '^/(?!/)' }, title: { type: 'string' } }, ['url', 'title']),
  opShape('model', { url: { type: 'string', pattern: '^/(?!/)' }, alt: { type: 'string' } }, ['url', 'alt']),
  opShape('editable', { label: { type: 'string' }, text: { type: 'string' }, op: { type: 'object' }, field: OP_FIELD }, ['label', 'text', 'op', 'field']),
  ...INTERACTIVE_BLOCK_SCHEMAS,
];

/** The JSON Schema every view block must match. */
export const VIEW_BLOCK_SCHEMA = {
  oneOf: [
    ...LEAF_BLOCK_SCHEMAS,
    opShape('group', { title: { type: 'string' }, selection: { type: 'object' }, blocks: { type: 'array', maxItems: 200, items: { oneOf: LEAF_BLOCK_SCHEMAS } } }, ['title', 'blocks']),
  ],
} as const;
