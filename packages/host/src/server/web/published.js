// What a task has published: each item with its source, revision, SHA-256 and a download link
// (GET /api/published/:id/download). Published items never change; new ones arrive as task events.
import { api, path } from './api.js';
import { fill, h } from './dom.js';

export class PublishedView {
  constructor() {
    this.root = h('div', { id: 'published' });
    this.shown = '';
  }

  async refresh(taskId) {
    const { published } = await api('GET', path('tasks', taskId, 'published'));
    const key = published.map((p) => p.id).join(',');
    if (key === this.shown) return;
    this.shown = key;
    fill(this.root, published.length === 0 ? null : [h('h3', {}, 'Published'), h('ul', { class: 'list published' }, published.map(item))]);
  }
}

function item(p) {
  return h(
    'li',
    { dataset: { publicationId: p.id } },
    h('a', { href: `${path('published', p.id)}/download`, download: p.fileName }, p.fileName),
    ` — ${sourceText(p)}, ${p.bytes} bytes, published by ${p.operator} at ${p.publishedAt} `,
    h('code', { title: 'SHA-256' }, p.sha256.slice(0, 12)),
  );
}

function sourceText(p) {
  const s = p.source || {};
  if (s.type === 'export') return `${s.resourceId} as ${s.format} at revision ${s.revision}`;
  if (s.type === 'file') return `work/${s.path}`;
  return 'published';
}
