// Renders a kind's view blocks (see packages/host/src/plugins/views.ts). Every string goes in as
// text, never as HTML, and pictures, frames and models come only from this origin, so a plugin's view
// cannot put script into the page.
import { h } from './dom.js';
import { renderModel } from './model-viewer.js';

/**
 * `edits` serves `editable` blocks: `edits.pending(label)` is the text a person is still editing
 * (kept across live updates), `edits.note(label)` the last thing said about it, `edits.change(label,
 * text, shown)` records an edit of the text shown, and `edits.save(block, text, status)` commits it.
 */
export function renderBlocks(blocks, edits) {
  return h('div', { id: 'editor-view', class: 'view' }, blocks.map((block) => renderBlock(block, edits)));
}

function renderBlock(block, edits) {
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
        'table',
        {},
        block.header ? h('thead', {}, h('tr', {}, block.header.map((cell) => h('th', {}, cell)))) : null,
        h('tbody', {}, block.rows.map((row) => h('tr', {}, row.map((cell) => h('td', {}, cell))))),
      );
    case 'image':
      return sameOrigin(block.url) ? h('img', { src: block.url, alt: block.alt, loading: 'lazy' }) : null;
    case 'frame':
      return sameOrigin(block.url) ? h('iframe', { src: block.url, title: block.title, sandbox: 'allow-scripts allow-forms' }) : null;
    case 'model':
      return sameOrigin(block.url) ? renderModel(block) : null;
    case 'editable':
      return edits ? renderEditable(block, edits) : h('pre', { class: 'content' }, block.text);
    default:
      return null;
  }
}

function renderEditable(block, edits) {
  const pending = edits.pending(block.label);
  const input = h('textarea', { rows: Math.min(20, block.text.split('\n').length + 2), spellcheck: 'false', dataset: { editable: block.label }, oninput: () => edits.change(block.label, input.value, block.text) });
  input.value = pending === undefined ? block.text : pending;
  const unsaved = pending !== undefined && pending !== block.text ? 'Unsaved changes (kept while others commit)' : '';
  const status = h('p', { role: 'status', 'aria-live': 'polite', dataset: { editableStatus: block.label } }, edits.note(block.label) ?? unsaved);
  return h(
    'div',
    { class: 'editable' },
    h('h5', {}, block.label),
    input,
    h('button', { type: 'button', dataset: { editableSave: block.label }, onclick: () => void edits.save(block, input.value, status) }, `Save ${block.label}`),
    status,
  );
}

function sameOrigin(url) {
  return typeof url === 'string' && url.startsWith('/') && !url.startsWith('//');
}
