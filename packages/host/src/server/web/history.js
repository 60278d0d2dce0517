// Revision history of the open resource: who did what when, the content of any revision with a
// line diff against the current one, and Restore (a new revision with the old content).
import { api, describe, operator, path } from './api.js';
import { contentText, diffLines } from './diff.js';
import { fill, h, when } from './dom.js';

export class History {
  constructor(root, deps) {
    this.root = root;
    this.deps = deps;
    this.resourceId = null;
    this.selected = null;
  }

  async open(resourceId) {
    this.resourceId = resourceId;
    this.selected = null;
    await this.refresh();
  }

  async refresh() {
    const id = this.resourceId;
    if (!id) return;
    const { revisions } = await api('GET', `${path('resources', id, 'revisions')}?limit=1000`);
    if (id !== this.resourceId) return;
    const rows = revisions
      .slice()
      .reverse()
      .map((r) =>
        h(
          'tr',
          { dataset: { revision: r.revision, operator: r.operator }, class: r.revision === this.selected ? 'selected' : undefined },
          h('td', {}, String(r.revision)),
          h('td', { class: 'operator-cell' }, r.operator),
          h('td', {}, r.action),
          h('td', {}, when(r.createdAt)),
          h('td', {}, h('button', { type: 'button', class: 'link', onclick: () => void this.show(r.revision) }, 'View')),
        ),
      );
    this.view = this.view || h('div', { id: 'revision-view' });
    fill(
      this.root,
      h('h3', {}, 'History'),
      h(
        'table',
        { id: 'history-table' },
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Revision'), h('th', { scope: 'col' }, 'Operator'), h('th', { scope: 'col' }, 'Action'), h('th', { scope: 'col' }, 'Time'), h('th', { scope: 'col' }, ''))),
        h('tbody', {}, rows),
      ),
      this.view,
    );
  }

  /** One revision's content, and what changed from it to the current revision. */
  async show(revision) {
    const id = this.resourceId;
    this.selected = revision;
    const [old, current] = await Promise.all([api('GET', path('resources', id, 'revisions', revision)), api('GET', path('resources', id))]);
    const before = contentText(old.content);
    const after = contentText(current.content);
    const status = h('p', { role: 'status' });
    const restore = h(
      'button',
      {
        id: 'restore',
        type: 'button',
        disabled: revision === current.revision,
        onclick: async () => {
          try {
            const result = await api('POST', path('resources', id, 'restore'), { revision, baseRevision: current.revision, operator: operator() });
            status.textContent = `Restored revision ${revision} as revision ${result.revision}`;
            this.deps.onRestored();
          } catch (error) {
            status.textContent = `Not restored: ${describe(error)}`;
          }
        },
      },
      `Restore revision ${revision}`,
    );
    const diff = diffLines(before, after);
    fill(
      this.view,
      h('h4', {}, `Revision ${revision}`),
      h('pre', { id: 'revision-content', class: 'content' }, before),
      h('h4', {}, `Changes from revision ${revision} to the current revision ${current.revision}`),
      h('div', { id: 'revision-diff', class: 'diff content', role: 'region', 'aria-label': 'line diff' }, revision === current.revision ? h('span', { class: 'muted' }, 'This is the current revision.') : diff),
      h('div', { class: 'row' }, restore, status),
    );
    for (const row of this.root.querySelectorAll('tr[data-revision]')) row.classList.toggle('selected', Number(row.dataset.revision) === revision);
  }
}
