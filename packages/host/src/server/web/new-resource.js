// Making a resource from the page: a new one of any loaded kind, with a title, or one imported
// from a file a kind reads (a deck, a document, a part). What the host refuses (a title, a file the
// kind cannot read) is shown with its code and what to do, and nothing is created.
import { api, describe, operator, upload } from './api.js';
import { fill, h, say } from './dom.js';

export class NewResource {
  /** `created(resource)` is called with each resource made here. */
  constructor(created) {
    this.created = created;
    this.kind = h('select', { id: 'new-kind', required: true });
    this.title = h('input', { id: 'new-title', type: 'text', maxlength: 200, autocomplete: 'off' });
    this.createStatus = h('p', { id: 'new-status', class: 'field-status', role: 'status', 'aria-live': 'polite' });
    this.importKind = h('select', { id: 'import-kind', onchange: () => this.acceptFor() });
    this.file = h('input', { id: 'import-file', type: 'file' });
    this.importTitle = h('input', { id: 'import-title', type: 'text', maxlength: 200, autocomplete: 'off' });
    this.importStatus = h('p', { id: 'import-status', class: 'field-status', role: 'status', 'aria-live': 'polite' });
    this.importForm = h(
      'form',
      { id: 'import-form', class: 'new-form', 'aria-labelledby': 'import-heading', onsubmit: (e) => (e.preventDefault(), void this.importFile()) },
      h('h3', { id: 'import-heading' }, 'Import a file'),
      h('div', { class: 'new-row' }, cell('import-kind', 'As kind', this.importKind), cell('import-file', 'File', this.file), cell('import-title', 'Title (optional; default: the file name)', this.importTitle)),
      h('button', { type: 'submit', id: 'import-submit' }, 'Import'),
      this.importStatus,
    );
    this.root = h(
      'div',
      { class: 'new-resource' },
      h(
        'form',
        { id: 'new-form', class: 'new-form', 'aria-labelledby': 'new-heading', onsubmit: (e) => (e.preventDefault(), void this.create()) },
        h('h3', { id: 'new-heading' }, 'New resource'),
        h('div', { class: 'new-row' }, cell('new-kind', 'Kind', this.kind), cell('new-title', 'Title', this.title)),
        h('button', { type: 'submit', id: 'new-submit' }, 'Create'),
        this.createStatus,
      ),
      this.importForm,
    );
  }

  /** Fills the kind choices from the loaded plugins. */
  async load() {
    const { plugins } = await api('GET', '/api/plugins');
    const kinds = plugins.flatMap((p) => p.kinds).sort((a, b) => a.name.localeCompare(b.name));
    this.importable = kinds.filter((k) => (k.imports || []).length > 0);
    fill(this.kind, kinds.map((k) => h('option', { value: k.name, title: k.description }, k.name)));
    fill(this.importKind, this.importable.map((k) => h('option', { value: k.name }, `${k.name} (${k.imports.map((f) => `.${f.extension}`).join(', ')})`)));
    this.importForm.hidden = this.importable.length === 0;
    this.acceptFor();
  }

  /** The file picker offers the chosen kind's extensions first. */
  acceptFor() {
    const kind = (this.importable || []).find((k) => k.name === this.importKind.value);
    if (kind) this.file.accept = kind.imports.map((f) => `.${f.extension}`).join(',');
  }

  async create() {
    const title = this.title.value.trim();
    if (!title) return say(this.createStatus, 'Give it a title (what people will find it by).', true);
    say(this.createStatus, 'Creating…');
    try {
      const resource = await api('POST', '/api/resources', { kind: this.kind.value, title, operator: operator() });
      this.title.value = '';
      say(this.createStatus, `Created “${resource.title}” (${resource.kind}).`);
      await this.created(resource);
    } catch (error) {
      say(this.createStatus, `Not created: ${describe(error)}`, true);
    }
  }

  async importFile() {
    const file = this.file.files && this.file.files[0];
    if (!file) return say(this.importStatus, 'Choose a file to import.', true);
    const title = (this.importTitle.value.trim() || file.name.replace(/\.[^.]*$/, '') || file.name).slice(0, 200);
    const query = new URLSearchParams({ kind: this.importKind.value, fileName: file.name, title, operator: operator() });
    say(this.importStatus, `Importing ${file.name}…`);
    try {
      const resource = await upload(`/api/resources/import?${query}`, file);
      this.importForm.reset();
      this.acceptFor();
      say(this.importStatus, `Imported ${file.name} as “${resource.title}” (${resource.kind}).`);
      await this.created(resource);
    } catch (error) {
      say(this.importStatus, `Not imported: ${describe(error)}`, true);
    }
  }
}

function cell(id, label, control) {
  return h('div', { class: 'new-cell' }, h('label', { for: id }, label), control);
}
