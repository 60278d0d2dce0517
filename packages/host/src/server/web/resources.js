// The resources panel: the list, and the open resource. A `text` resource is edited in a textarea
// and saved as one `set` op on the revision the person read; what others commit meanwhile arrives
// live and never overwrites an unsaved edit; a conflicting save shows the person's candidate beside
// the current revision, to retry on top of it or discard.
import { api, ApiError, describe, operator, path } from './api.js';
import { contentText } from './diff.js';
import { debounce, fill, h } from './dom.js';
import { History } from './history.js';
import { renderBlocks } from './view.js';

export class ResourcesPanel {
  constructor(root, live) {
    this.live = live;
    this.current = null; // {id, kind, revision, savedText}
    this.saving = false;
    this.syncAgain = false;
    this.list = h('ul', { id: 'resource-list', class: 'list' });
    this.editor = h('div', { id: 'editor' }, h('p', { class: 'muted' }, 'Open a resource from the list.'));
    this.historyRoot = h('div', { id: 'history' });
    this.history = new History(this.historyRoot, {
      currentRevision: () => this.current && this.current.revision,
      onRestored: () => this.sync(),
    });
    fill(
      root,
      h('h2', { id: 'resources-title' }, 'Resources'),
      h('button', { type: 'button', onclick: () => void this.refreshList() }, 'Refresh list'),
      this.list,
      this.editor,
      this.historyRoot,
    );
    // A person's selection in the text editor is saved (debounced) for agents and others to see.
    this.saveSelectionSoon = debounce(() => void this.saveSelection(), 400);
    const refreshHistory = debounce(() => void Promise.all([this.history.refresh(), this.refreshList()]), 100);
    live.on('revision', (message) => {
      if (!this.current || message.resourceId !== this.current.id) return;
      refreshHistory();
      if (message.revision > this.current.revision) void this.sync();
    });
  }

  async refreshList() {
    const { resources } = await api('GET', '/api/resources');
    fill(
      this.list,
      resources.length === 0 ? h('li', { class: 'muted' }, 'No resources yet.') : null,
      resources.map((r) =>
        h('li', {}, h('button', { type: 'button', class: 'link', dataset: { resourceId: r.id }, onclick: () => void this.open(r.id) }, `${r.id} (${r.kind}, revision ${r.revision})`)),
      ),
    );
  }

  async open(id) {
    if (this.current) this.live.unsubscribe(this.current.id);
    const resource = await api('GET', path('resources', id));
    this.current = { id, kind: resource.kind, revision: resource.revision, savedText: contentText(resource.content) };
    this.render(resource);
    this.live.subscribe(id, resource.revision);
    await this.history.open(id);
  }

  /** A kind other than text: its plugin's view blocks, or its JSON when the kind has no view. */
  async renderView(resource, heading, revision) {
    const { blocks } = await api('GET', `${path('resources', resource.id)}/view?revision=${resource.revision}`);
    if (!this.current || this.current.id !== resource.id) return;
    fill(
      this.editor,
      heading,
      revision,
      blocks
        ? renderBlocks(blocks, this.edits(resource))
        : [
            h('p', { class: 'note' }, `The ${resource.kind} kind has no view; its content is shown as JSON.`),
            h('pre', { id: 'editor-json', class: 'content' }, JSON.stringify(resource.content, null, 2)),
          ],
      this.opForm(resource),
    );
  }

  /**
   * A view's `editable` blocks (a web app's files). An edit remembers the revision and text it
   * started from and is kept across live updates; saving commits the block's op with the text on
   * that revision. If others committed meanwhile and did not touch this text, the save is retried
   * on top at once; if they changed it too, the person's text stays and they are told, and the next
   * save goes on top of what they now see. Nothing anyone saved is overwritten unseen.
   */
  edits(resource) {
    const pending = (this.pendingEdits ??= new Map());
    // The last thing said about each text, kept across the re-render a save or a live update causes.
    const notes = (this.editNotes ??= new Map());
    const key = (label) => `${resource.id}:${label}`;
    const tell = (label, status, text) => {
      notes.set(key(label), text);
      status.textContent = text;
    };
    return {
      pending: (label) => pending.get(key(label))?.text,
      note: (label) => notes.get(key(label)),
      change: (label, text, shown) => {
        notes.delete(key(label));
        // The first keystroke fixes what the edit started from: the revision and the text shown.
        const started = pending.get(key(label)) ?? { base: this.current.revision, original: shown };
        pending.set(key(label), { ...started, text });
      },
      save: async (block, text, status) => {
        const edit = pending.get(key(block.label)) ?? { base: this.current.revision, original: block.text, text };
        const original = edit.original;
        const op = { ...block.op, [block.field]: text };
        try {
          let result;
          try {
            result = await commit(resource.id, edit.base, op);
          } catch (error) {
            if (!(error instanceof ApiError && error.code === 'revision_conflict')) throw error;
            const now = await this.editableText(resource.id, error.details.currentRevision, block.label);
            if (now !== original) {
              pending.set(key(block.label), { text, base: error.details.currentRevision, original: now });
              tell(block.label, status, `Someone else changed ${block.label} (now revision ${error.details.currentRevision}); your text is kept here. Look at theirs in the history, then save again to put yours on top.`);
              return;
            }
            // The conflict kept the save as a candidate: accepting it on the new revision is the retry.
            result = await api('POST', path('candidates', error.details.candidateId, 'accept'), { operator: operator(), baseRevision: error.details.currentRevision });
          }
          pending.delete(key(block.label));
          tell(block.label, status, `Saved ${block.label} as revision ${result.revision}.`);
          await this.sync();
        } catch (error) {
          tell(block.label, status, describe(error));
        }
      },
    };
  }

  /** The text of a view's editable block at a revision (undefined when it has none by that label). */
  async editableText(id, revision, label) {
    const { blocks } = await api('GET', `${path('resources', id)}/view?revision=${revision}`);
    return (blocks || []).find((b) => b.type === 'editable' && b.label === label)?.text;
  }

  /**
   * Any kind is editable by a person through its ops, typed as JSON and committed on the revision
   * shown, like an agent's commit; the text being typed survives live updates.
   */
  opForm(resource) {
    const input = h('textarea', { id: 'op-json', rows: 4, spellcheck: 'false', oninput: () => (this.pendingOp = input.value) });
    input.value = this.pendingOp || '';
    const status = h('p', { id: 'op-status', role: 'status', 'aria-live': 'polite' });
    const submit = async () => {
      let op;
      try {
        op = JSON.parse(input.value);
      } catch {
        status.textContent = 'The op is not valid JSON.';
        return;
      }
      try {
        const result = await commit(resource.id, this.current.revision, op);
        this.pendingOp = '';
        status.textContent = `Committed revision ${result.revision}.`;
        await this.sync();
      } catch (error) {
        if (error instanceof ApiError && error.code === 'revision_conflict') {
          status.textContent = `The resource moved to revision ${error.details.currentRevision}; your op was kept as candidate ${error.details.candidateId}. Look at the new revision and commit again.`;
          await this.sync();
        } else status.textContent = describe(error);
      }
    };
    return h(
      'div',
      { class: 'op-form' },
      h('label', { for: 'op-json' }, `Change it: an op of the ${resource.kind} kind, as JSON, committed on revision ${resource.revision}`),
      input,
      h('button', { type: 'button', id: 'op-commit', onclick: () => void submit() }, 'Commit op'),
      status,
    );
  }

  render(resource) {
    const heading = h('h3', { id: 'editor-title' }, `${resource.id} (${resource.kind})`);
    const revision = h('p', {}, 'Revision ', h('span', { id: 'editor-revision' }, String(resource.revision)));
    if (resource.kind !== 'text') {
      fill(this.editor, heading, revision, h('p', { class: 'muted' }, 'Loading its view…'));
      void this.renderView(resource, heading, revision);
      return;
    }
    this.textarea = h('textarea', { id: 'editor-text', rows: 14, spellcheck: 'false', oninput: () => this.showDirty() });
    this.textarea.value = this.current.savedText;
    for (const event of ['select', 'keyup', 'mouseup']) this.textarea.addEventListener(event, () => this.saveSelectionSoon());
    this.savedSelection = undefined;
    this.selections = h('p', { id: 'selections', class: 'muted', role: 'status', 'aria-live': 'polite' });
    this.status = h('p', { id: 'editor-status', role: 'status', 'aria-live': 'polite' });
    this.moved = h('p', { id: 'moved-notice', class: 'warning', role: 'alert', hidden: true });
    this.saveButton = h('button', { id: 'save', type: 'button', onclick: () => void this.save() }, 'Save');
    this.conflict = h('section', { id: 'conflict', class: 'conflict', hidden: true, 'aria-labelledby': 'conflict-title' });
    fill(this.editor, heading, revision, h('label', { for: 'editor-text' }, 'Content'), this.textarea, h('div', { class: 'row' }, this.saveButton, this.status), this.selections, this.moved, this.conflict);
    void this.showSelections();
  }

  /** Saves the person's selected range of the text (with the revision it is on), when it changed. */
  async saveSelection() {
    if (!this.current || this.current.kind !== 'text' || !this.textarea) return;
    const { id, revision } = this.current;
    const selection = { range: [this.textarea.selectionStart, this.textarea.selectionEnd], revision };
    const key = `${id}:${JSON.stringify(selection)}`;
    if (key === this.savedSelection) return;
    try {
      await api('PUT', path('resources', id, 'selection'), { selection, operator: operator() });
      this.savedSelection = key;
      await this.showSelections();
    } catch (error) {
      this.selections.textContent = `Selection not saved: ${describe(error)}`;
    }
  }

  /** Each person's saved selection on the open text ("human:ann: 0–5"). */
  async showSelections() {
    if (!this.current || !this.selections) return;
    const { id } = this.current;
    try {
      const { selections } = await api('GET', path('resources', id, 'selections'));
      if (!this.current || this.current.id !== id) return;
      const described = selections.map((s) => {
        const range = s.selection && Array.isArray(s.selection.range) ? `${s.selection.range[0]}–${s.selection.range[1]}` : JSON.stringify(s.selection);
        return `${s.person}: ${range}`;
      });
      this.selections.textContent = described.length > 0 ? `Selections: ${described.join('; ')}` : 'No selections yet.';
    } catch (error) {
      this.selections.textContent = `Selections unavailable: ${describe(error)}`;
    }
  }

  dirty() {
    return Boolean(this.textarea) && this.textarea.value !== this.current.savedText;
  }

  showDirty() {
    this.status.textContent = this.dirty() ? 'Unsaved changes' : '';
  }

  /** Brings the page up to the resource's newest revision, unless the person has unsaved edits. */
  async sync() {
    if (this.saving) {
      this.syncAgain = true;
      return;
    }
    const { id } = this.current;
    const resource = await api('GET', path('resources', id));
    if (!this.current || this.current.id !== id || resource.revision <= this.current.revision) return;
    if (this.current.kind !== 'text' || !this.dirty()) {
      this.current.revision = resource.revision;
      this.current.savedText = contentText(resource.content);
      if (this.current.kind === 'text') {
        this.textarea.value = this.current.savedText;
        this.editor.querySelector('#editor-revision').textContent = String(resource.revision);
        this.moved.hidden = true;
        this.showDirty();
      } else this.render(resource);
      return;
    }
    this.moved.hidden = false;
    this.moved.textContent =
      `This resource moved to revision ${resource.revision} while you were editing revision ${this.current.revision}. ` +
      'Your edit is kept; when you save, you will see it beside the current revision and choose.';
  }

  async save() {
    const text = this.textarea.value;
    this.saveButton.disabled = true;
    this.status.textContent = 'Saving…';
    await this.resolving(async () => {
      try {
        const result = await commit(this.current.id, this.current.revision, { type: 'set', text });
        this.adopt(result.revision, text);
        this.status.textContent = `Saved as revision ${result.revision}`;
      } catch (error) {
        if (error instanceof ApiError && error.code === 'revision_conflict') await this.showConflict(error.details.candidateId, text);
        else this.status.textContent = `Not saved: ${describe(error)}`;
      }
    });
    this.saveButton.disabled = !this.conflict.hidden;
  }

  adopt(revision, text) {
    this.current.revision = revision;
    this.current.savedText = text;
    this.textarea.value = text;
    this.editor.querySelector('#editor-revision').textContent = String(revision);
    this.moved.hidden = true;
  }

  /** The person's candidate beside the current revision, with Retry and Discard. */
  async showConflict(candidateId, candidateText) {
    const resource = await api('GET', path('resources', this.current.id));
    const message = h('p', { id: 'conflict-status', role: 'status' });
    const retry = h('button', { id: 'conflict-retry', type: 'button' }, 'Retry: save my version on top of the current one');
    const discard = h('button', { id: 'conflict-discard', type: 'button' }, 'Discard my version');
    retry.addEventListener('click', () => void this.resolving(async () => {
      try {
        const latest = await api('GET', path('resources', this.current.id));
        const result = await api('POST', path('candidates', candidateId, 'accept'), { operator: operator(), baseRevision: latest.revision });
        this.closeConflict();
        this.adopt(result.revision, candidateText);
        this.status.textContent = `Saved your version as revision ${result.revision}`;
      } catch (error) {
        message.textContent = `Retry failed: ${describe(error)}`;
      }
    }));
    discard.addEventListener('click', () => void this.resolving(async () => {
      try {
        await api('POST', path('candidates', candidateId, 'reject'), { operator: operator() });
        const latest = await api('GET', path('resources', this.current.id));
        this.closeConflict();
        this.adopt(latest.revision, contentText(latest.content));
        this.status.textContent = `Discarded your version; showing revision ${latest.revision}`;
      } catch (error) {
        message.textContent = `Discard failed: ${describe(error)}`;
      }
    }));
    fill(
      this.conflict,
      h('h4', { id: 'conflict-title' }, 'Someone saved first'),
      h('p', {}, `Your save was based on revision ${this.current.revision}, but the resource is at revision ${resource.revision}. Your version is kept as candidate ${candidateId}.`),
      h(
        'div',
        { class: 'side-by-side' },
        h('figure', {}, h('figcaption', {}, 'Your version'), h('pre', { id: 'conflict-candidate', class: 'content' }, candidateText)),
        h('figure', {}, h('figcaption', {}, `Current: revision ${resource.revision}`), h('pre', { id: 'conflict-current', class: 'content' }, contentText(resource.content))),
      ),
      h('div', { class: 'row' }, retry, discard),
      message,
    );
    this.conflict.hidden = false;
    this.status.textContent = 'Not saved: revision conflict';
  }

  /** Runs a save or a conflict action with live syncing held back, so its own revision is not taken for someone else's. */
  async resolving(action) {
    this.saving = true;
    try {
      await action();
    } finally {
      this.saving = false;
      if (this.syncAgain) {
        this.syncAgain = false;
        void this.sync();
      }
    }
  }

  closeConflict() {
    this.conflict.hidden = true;
    fill(this.conflict);
    this.saveButton.disabled = false;
  }
}

/** Commits one op on the revision the person read, as the person named in the page. */
function commit(resourceId, baseRevision, op) {
  return api('POST', path('resources', resourceId, 'commits'), { baseRevision, op, operator: operator() });
}
