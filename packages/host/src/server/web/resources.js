// The resources panel: making and finding resources (new-resource.js, resource-list.js), the open
// resource, its proposed changes (candidates.js) and its history. A `text` resource is edited here in
// a textarea and saved as one `set` op on the revision the person read; what others commit meanwhile
// arrives live and never overwrites an unsaved edit; a conflicting save shows the person's candidate
// beside the current revision, to retry on top of it or discard. Every other kind is shown and
// edited through its view (kind-view.js).
import { api, ApiError, commitOp, describe, operator, path } from './api.js';
import { contentText } from './diff.js';
import { debounce, fill, h } from './dom.js';
import { History } from './history.js';
import { CandidatesView } from './candidates.js';
import { KindView } from './kind-view.js';
import { NewResource } from './new-resource.js';
import { ResourceList } from './resource-list.js';

/** How often proposals and selections are read again (they have no live event). */
const POLL_MS = 4000;

export class ResourcesPanel {
  constructor(root, live) {
    this.live = live;
    this.current = null; // {id, kind, revision, savedText}
    this.saving = false;
    this.syncAgain = false;
    this.list = new ResourceList((id) => this.open(id));
    this.make = new NewResource(async (resource) => {
      await this.refreshList();
      await this.open(resource.id);
    });
    this.editor = h('div', { id: 'editor' }, h('p', { class: 'muted' }, 'Open a resource from the list.'));
    this.kindView = new KindView(this.editor, () => this.current);
    this.candidates = new CandidatesView(() => this.current, () => this.sync());
    this.historyRoot = h('div', { id: 'history' });
    this.history = new History(this.historyRoot, {
      currentRevision: () => this.current && this.current.revision,
      onRestored: () => this.sync(),
    });
    fill(
      root,
      h('h2', { id: 'resources-title' }, 'Resources'),
      this.make.root,
      this.list.root,
      this.editor,
      this.candidates.root,
      this.historyRoot,
    );
    // A person's selection in the text editor is saved (debounced) for agents and others to see.
    this.saveSelectionSoon = debounce(() => void this.saveSelection(), 400);
    const refreshHistory = debounce(() => void Promise.all([this.history.refresh(), this.refreshList(), this.candidates.refresh()]), 100);
    // Proposals and others' selections have no live event: they are read again while a resource is open.
    setInterval(() => {
      if (this.current && document.visibilityState === 'visible') void Promise.all([this.candidates.refresh(), this.kindView.showSelections()]).catch(() => undefined);
    }, POLL_MS);
    live.on('revision', (message) => {
      if (!this.current || message.resourceId !== this.current.id) return;
      refreshHistory();
      if (message.revision > this.current.revision) void this.sync();
    });
  }

  async refreshList() {
    await Promise.all([this.list.refresh(), this.make.kind.options.length === 0 ? this.make.load() : undefined]);
  }

  async open(id) {
    if (this.current) this.live.unsubscribe(this.current.id);
    this.candidates.reset();
    const resource = await api('GET', path('resources', id));
    this.current = { id, kind: resource.kind, title: resource.title, revision: resource.revision, savedText: contentText(resource.content) };
    this.render(resource);
    this.live.subscribe(id, resource.revision);
    await Promise.all([this.history.open(id), this.candidates.refresh()]);
  }

  render(resource) {
    const heading = h('h3', { id: 'editor-title' }, resource.title || resource.id, h('span', { class: 'muted kind-name' }, ` ${resource.kind}`));
    const revision = h('p', {}, 'Revision ', h('span', { id: 'editor-revision' }, String(resource.revision)));
    if (resource.kind !== 'text') {
      void this.kindView.open(resource, h('div', { class: 'editor-head' }, heading, revision));
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
    if (this.current.kind !== 'text') return this.kindView.update();
    const { id } = this.current;
    const resource = await api('GET', path('resources', id));
    if (!this.current || this.current.id !== id || resource.revision <= this.current.revision) return;
    if (!this.dirty()) {
      this.current.revision = resource.revision;
      this.current.savedText = contentText(resource.content);
      this.textarea.value = this.current.savedText;
      this.editor.querySelector('#editor-revision').textContent = String(resource.revision);
      this.moved.hidden = true;
      this.showDirty();
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
        const result = await commitOp(this.current.id, this.current.revision, { type: 'set', text });
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
