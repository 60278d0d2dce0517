// The open resource of a kind other than text: its kind's view, where the person edits fields,
// runs actions and selects parts, kept up to date in place as revisions arrive (only blocks that
// changed are redrawn, an unsaved edit is kept), with each person's selection marked. A kind
// without a view shows its JSON. Every kind can also be changed through a typed op (op-form.js).
import { api, describe, operator, path } from './api.js';
import { fill, h } from './dom.js';
import { Edits } from './edits.js';
import { markGroups } from './groups.js';
import { renderOpForm } from './op-form.js';
import { renderBlocks, updateBlocks } from './view.js';

export class KindView {
  /** `current()`: the open resource's `{id, kind, revision}` (the panel's, updated here). */
  constructor(root, current) {
    this.root = root;
    this.current = current;
    this.edits = new Edits({ revision: () => this.current().revision, sync: () => this.update() });
    this.updating = null;
    this.again = false;
  }

  /** Draws `resource` (as read from the API) into the editor, under `header`. */
  async open(resource, header) {
    this.view = null;
    this.json = null;
    this.revisionText = header.querySelector('#editor-revision');
    fill(this.root, header, h('p', { class: 'muted' }, 'Loading its view…'));
    const { blocks } = await api('GET', `${path('resources', resource.id)}/view?revision=${resource.revision}`);
    if (this.current()?.id !== resource.id) return;
    this.selectionStatus = h('p', { id: 'selection-status', class: 'muted', role: 'status', 'aria-live': 'polite' });
    const opForm = renderOpForm(resource.kind, () => this.current(), () => this.update(), !blocks);
    if (!blocks) {
      this.json = h('pre', { id: 'editor-json', class: 'content' }, JSON.stringify(resource.content, null, 2));
      fill(this.root, header, h('p', { class: 'note' }, `The ${resource.kind} kind has no view; its content is shown as JSON.`), this.json, opForm);
      return;
    }
    this.view = renderBlocks(blocks, this.context(resource.id));
    fill(this.root, header, this.view, this.selectionStatus, opForm);
    await this.showSelections();
  }

  context(resourceId) {
    return {
      resourceId,
      edits: this.edits.of(resourceId),
      revision: () => this.current().revision,
      sync: () => this.update(),
      select: (selection) => void this.select(resourceId, selection),
    };
  }

  /** Brings the view up to the resource's newest revision, one update at a time. */
  async update() {
    if (this.updating) {
      this.again = true;
      return this.updating;
    }
    this.updating = (async () => {
      try {
        do {
          this.again = false;
          await this.updateOnce();
        } while (this.again);
      } finally {
        this.updating = null;
      }
    })();
    return this.updating;
  }

  async updateOnce() {
    const shown = this.current();
    if (!shown) return;
    const resource = await api('GET', path('resources', shown.id));
    if (this.current()?.id !== shown.id || resource.revision <= shown.revision) return;
    if (this.view) {
      const { blocks } = await api('GET', `${path('resources', shown.id)}/view?revision=${resource.revision}`);
      if (this.current()?.id !== shown.id) return;
      updateBlocks(this.view, blocks || [], this.context(shown.id));
    } else if (this.json) this.json.textContent = JSON.stringify(resource.content, null, 2);
    this.current().revision = resource.revision;
    this.revisionText.textContent = String(resource.revision);
    await this.showSelections();
  }

  /** Saves `selection` as the person's, for agents to see, and marks it. */
  async select(resourceId, selection) {
    try {
      await api('PUT', path('resources', resourceId, 'selection'), { selection, operator: operator() });
      this.selectionStatus.textContent = 'Your selection is saved; agents see it when they read this resource.';
      await this.showSelections();
    } catch (error) {
      this.selectionStatus.textContent = `Selection not saved: ${describe(error)}`;
    }
  }

  async showSelections() {
    const shown = this.current();
    if (!shown || !this.view) return;
    try {
      const { selections } = await api('GET', path('resources', shown.id, 'selections'));
      if (this.current()?.id === shown.id) markGroups(this.view, selections, operator());
    } catch {
      // Shown again on the next poll; the view itself stays usable.
    }
  }
}
