// The list of resources: each by its title (its id when it has none) and kind, with who changed it
// last and when, filtered as the person types or picks a kind. Opening one is the panel's part.
import { api } from './api.js';
import { fill, h, when } from './dom.js';

export class ResourceList {
  /** `open(id)` opens a resource in the editor. */
  constructor(open) {
    this.open = open;
    this.resources = [];
    this.text = h('input', { id: 'resource-filter', type: 'search', autocomplete: 'off', oninput: () => this.render() });
    this.kind = h('select', { id: 'resource-filter-kind', onchange: () => this.render() });
    this.count = h('p', { id: 'resource-count', class: 'muted', role: 'status', 'aria-live': 'polite' });
    this.list = h('ul', { id: 'resource-list', class: 'resource-list' });
    this.root = h(
      'div',
      { class: 'resource-browser' },
      h(
        'div',
        { class: 'filters' },
        h('div', { class: 'filter' }, h('label', { for: 'resource-filter' }, 'Find'), this.text),
        h('div', { class: 'filter' }, h('label', { for: 'resource-filter-kind' }, 'Kind'), this.kind),
        h('button', { type: 'button', class: 'refresh', onclick: () => void this.refresh() }, 'Refresh list'),
      ),
      this.count,
      this.list,
    );
  }

  async refresh() {
    const { resources } = await api('GET', '/api/resources');
    this.resources = resources;
    const kinds = [...new Set(resources.map((r) => r.kind))].sort();
    const chosen = this.kind.value;
    fill(this.kind, h('option', { value: '' }, 'All kinds'), kinds.map((k) => h('option', { value: k }, k)));
    this.kind.value = kinds.includes(chosen) ? chosen : '';
    this.render();
  }

  render() {
    const words = this.text.value.trim().toLowerCase().split(/\s+/).filter(Boolean);
    const kind = this.kind.value;
    const shown = this.resources.filter((r) => (!kind || r.kind === kind) && words.every((w) => `${r.title || ''} ${r.id} ${r.kind}`.toLowerCase().includes(w)));
    this.count.textContent = this.resources.length === 0 ? 'No resources yet: create one or import a file.' : shown.length === this.resources.length ? `${shown.length} resources` : `${shown.length} of ${this.resources.length} resources`;
    fill(
      this.list,
      shown.map((r) =>
        h(
          'li',
          { dataset: { resourceItem: r.id } },
          h('button', { type: 'button', class: 'link', dataset: { resourceId: r.id }, onclick: () => void this.open(r.id) }, r.title || r.id),
          h('span', { class: 'resource-meta' }, `${r.kind} · revision ${r.revision} · changed by ${r.updatedBy || 'unknown'}, ${when(r.updatedAt)}`),
        ),
      ),
    );
  }
}
