// Renders a kind's view blocks (see packages/host/src/plugins/views.ts). Every string goes in as
// text, never as HTML, and pictures, frames and models come only from this origin, so a plugin's view
// cannot put script into the page. A new revision updates the view in place: blocks that did not
// change keep their elements (and the person's focus, caret and scroll), so nothing jumps.
import { renderAction } from './actions.js';
import { h } from './dom.js';
import { renderEditable, renderField } from './fields.js';
import { renderGroup } from './groups.js';
import { renderModel } from './model-viewer.js';

let nextId = 0;

/**
 * The view of `blocks`. `ctx` (absent: read only) serves the interactive blocks: `edits` (edits.js,
 * for one resource), `resourceId`, `revision()`, `sync()` and `select(selection)`.
 */
export function renderBlocks(blocks, ctx) {
  const view = h('div', { id: 'editor-view', class: 'view' });
  updateBlocks(view, blocks, ctx);
  return view;
}

/**
 * Brings `view` (from renderBlocks) to `blocks`, replacing only the blocks that changed. A control
 * focused before is focused again after, caret kept, wherever its focus key now is: redrawn in place,
 * or moved with its item (a slide's title when a slide was inserted before it).
 */
export function updateBlocks(view, blocks, ctx) {
  const full = ctx && { ...ctx, id: (prefix) => `${prefix}-${++nextId}` };
  const focus = focusIn(view);
  // A frame first and texts to edit next (a web app and its files): app.css sets them side by side where there is room.
  view.classList.toggle('frame-beside', blocks[0]?.type === 'frame' && blocks[1]?.type === 'editable');
  reconcile(view, blocks, (block) => (block.type === 'group' ? group(block, full) : renderBlock(block, full)));
  if (focus) refocus(view, focus);
}

function group(block, ctx) {
  // Its inner blocks are drawn as reconcile draws them, and reconcile on their own next time, so an
  // edit in one slide keeps the others' elements, and the first revision after it keeps this one's.
  const section = renderGroup(block, ctx, (inner) => drawn(inner, (b) => renderBlock(b, ctx)));
  section.updateInner = (next) => reconcile(section.querySelector('.group-body'), next.blocks, (inner) => renderBlock(inner, ctx));
  return section;
}

/** `render(block)`'s element (a hidden placeholder for nothing), marked with the block it shows, for reconcile to compare. */
function drawn(block, render) {
  const element = render(block) ?? h('div', { hidden: true });
  return Object.assign(element, { blockJson: JSON.stringify(block), blockType: block.type, groupHead: block.type === 'group' ? headOf(block) : undefined });
}

/** Keeps each child whose block is unchanged; replaces the others where they stand (updateBlocks puts the focus back). */
function reconcile(parent, blocks, render) {
  const old = [...parent.children];
  blocks.forEach((block, index) => {
    const json = JSON.stringify(block);
    const before = old[index];
    if (before && before.blockJson === json) return;
    if (before && before.blockType === 'group' && block.type === 'group' && before.groupHead === headOf(block)) {
      before.updateInner(block);
      before.blockJson = json;
      return;
    }
    if (before && before.blockType === 'image' && block.type === 'image' && sameOrigin(block.url)) {
      // The next revision's picture replaces the last one when it has loaded; the box never empties.
      Object.assign(before, { src: block.url, alt: block.alt, blockJson: json });
      return;
    }
    const next = drawn(block, render);
    if (before) before.replaceWith(next);
    else parent.append(next);
  });
  for (const extra of old.slice(blocks.length)) extra.remove();
}

/** What a group's own element shows, apart from its inner blocks. */
function headOf(block) {
  return JSON.stringify([block.title, block.selection ?? null]);
}

/** The focused control inside `root` that has a focus key, with its caret; undefined when there is none. */
function focusIn(root) {
  const focused = document.activeElement;
  if (!focused || !root.contains(focused) || !focused.dataset.focusKey) return undefined;
  const caret = typeof focused.selectionStart === 'number' ? [focused.selectionStart, focused.selectionEnd] : undefined;
  return { element: focused, key: focused.dataset.focusKey, caret };
}

/** Focuses the control with the focused one's key again if that one was replaced, without scrolling. */
function refocus(root, { element, key, caret }) {
  if (root.contains(element)) return;
  const again = root.querySelector(`[data-focus-key="${CSS.escape(key)}"]`);
  if (!again) return;
  again.focus({ preventScroll: true });
  if (caret && typeof again.setSelectionRange === 'function') again.setSelectionRange(...caret);
}

function renderBlock(block, ctx) {
  switch (block.type) {
    case 'heading':
      return h(`h${(block.level || 2) + 2}`, {}, block.text);
    case 'paragraph':
      return h('p', {}, block.text);
    case 'list':
      return h(block.ordered ? 'ol' : 'ul', {}, block.items.map((item) => h('li', {}, item)));
    case 'code':
      return h('pre', { class: 'content' }, block.text);
    case 'table':
      return h(
        'div',
        { class: 'table-scroll' },
        h(
          'table',
          {},
          block.header ? h('thead', {}, h('tr', {}, block.header.map((cell) => h('th', { scope: 'col' }, cell)))) : null,
          h('tbody', {}, block.rows.map((row) => h('tr', {}, row.map((cell) => h('td', {}, cell))))),
        ),
      );
    case 'image':
      return sameOrigin(block.url) ? h('img', { src: block.url, alt: block.alt, loading: 'lazy' }) : null;
    case 'frame':
      return sameOrigin(block.url) ? h('iframe', { src: block.url, title: block.title, sandbox: 'allow-scripts allow-forms' }) : null;
    case 'model':
      return sameOrigin(block.url) ? renderModel(block) : null;
    case 'editable':
      return ctx ? renderEditable(block, ctx) : h('pre', { class: 'content' }, block.text);
    case 'field':
      return ctx ? renderField(block, ctx) : h('p', {}, `${block.label}: ${String(block.value)}`);
    case 'action':
      return ctx ? renderAction(block, ctx) : null;
    default:
      return null;
  }
}

function sameOrigin(url) {
  return typeof url === 'string' && url.startsWith('/') && !url.startsWith('//');
}
