// Renders a kind's view blocks (see packages/host/src/plugins/views.ts). Every string goes in as
// text, never as HTML, and pictures, frames and models come only from this origin, so a plugin's view
// cannot put script into the page.
import { h } from './dom.js';
import { renderModel } from './model-viewer.js';

export function renderBlocks(blocks) {
  return h('div', { id: 'editor-view', class: 'view' }, blocks.map(renderBlock));
}

function renderBlock(block) {
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
    default:
      return null;
  }
}

function sameOrigin(url) {
  return typeof url === 'string' && url.startsWith('/') && !url.startsWith('//');
}
