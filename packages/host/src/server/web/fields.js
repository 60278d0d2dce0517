// A view's `field` (one value edited in place: a slide's title, a part's width) and `editable`
// (a whole text: a web app's file) blocks. The control keeps the person's unsaved value across live
// updates (see edits.js); a value the page can tell is wrong (not a number, out of range) is refused
// here with what to type, and nothing is sent; the host's refusal is shown next to the control.
import { defaultInput, editKey, parseValue, shownValue } from './blocks.js';
import { h, say } from './dom.js';

/** `ctx.edits`: the resource's edits (edits.js); `ctx.id(prefix)`: a fresh element id. */
export function renderField(block, ctx) {
  const input = block.input || defaultInput(block.value);
  const shown = shownValue(block);
  const edit = editKey(block);
  const pending = ctx.edits.pending(edit);
  const id = ctx.id('field');
  const multiline = input === 'textarea' || input === 'lines';
  const control = multiline
    ? h('textarea', { rows: Math.min(12, Math.max(2, (pending ?? shown).split('\n').length + 1)) })
    : h('input', { type: 'text', inputmode: input === 'number' ? 'decimal' : input === 'numbers' ? 'text' : undefined, autocomplete: 'off' });
  Object.assign(control, { id, value: pending ?? shown });
  control.dataset.field = block.label;
  control.dataset.focusKey = `field:${edit}`;
  control.setAttribute('aria-describedby', `${id}-status`);
  const status = statusFor(id, ctx.edits.note(edit), pending !== undefined);
  status.dataset.fieldStatus = block.label;
  if (ctx.edits.note(edit)?.error) control.setAttribute('aria-invalid', 'true');
  const save = () => {
    const parsed = parseValue({ label: block.label, input, min: block.min, max: block.max }, control.value);
    if (parsed.problem) ctx.edits.refuse(edit, status, parsed.problem);
    else void ctx.edits.save(block, control.value, parsed.value, status);
  };
  control.addEventListener('input', () => {
    ctx.edits.change(edit, control.value, shown);
    say(status, ctx.edits.pending(edit) === undefined ? '' : UNSAVED);
  });
  // Enter saves a one-line value; Ctrl+Enter saves a text of several lines.
  control.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (!multiline || event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      save();
    }
  });
  return h(
    'div',
    { class: `field${multiline ? ' multiline' : ''}` },
    h('label', { for: id }, block.label, hint(block, input)),
    h('div', { class: 'field-row' }, control, h('button', { type: 'button', 'aria-label': `Save ${block.label}`, dataset: { fieldSave: block.label }, onclick: save }, 'Save')),
    status,
  );
}

/** A whole text a person edits (a web app's file), saved with its own button. */
export function renderEditable(block, ctx) {
  const edit = editKey(block);
  const pending = ctx.edits.pending(edit);
  const id = ctx.id('editable');
  const input = h('textarea', { id, rows: Math.min(20, block.text.split('\n').length + 2), spellcheck: 'false', 'aria-describedby': `${id}-status`, dataset: { editable: block.label, focusKey: `editable:${edit}` } });
  input.value = pending ?? block.text;
  const status = statusFor(id, ctx.edits.note(edit), pending !== undefined);
  status.dataset.editableStatus = block.label;
  input.addEventListener('input', () => {
    ctx.edits.change(edit, input.value, block.text);
    say(status, ctx.edits.pending(edit) === undefined ? '' : UNSAVED);
  });
  return h(
    'div',
    { class: 'editable' },
    h('label', { for: id, class: 'editable-label' }, block.label),
    input,
    h('button', { type: 'button', dataset: { editableSave: block.label }, onclick: () => void ctx.edits.save(block, input.value, input.value, status) }, `Save ${block.label}`),
    status,
  );
}

const UNSAVED = 'Unsaved changes (kept while others commit)';

/** The status line under a control: the last thing said about it, else whether it holds an unsaved edit. */
function statusFor(id, note, unsaved) {
  const status = h('p', { id: `${id}-status`, class: 'field-status', role: 'status', 'aria-live': 'polite', dataset: { for: id } });
  if (note) say(status, note.text, note.error);
  else if (unsaved) say(status, UNSAVED);
  return status;
}

/** What the label adds: the unit and the range a number must be in. */
function hint(block, input) {
  const parts = [];
  if (block.unit) parts.push(block.unit);
  if (block.min !== undefined && block.max !== undefined) parts.push(`${block.min} to ${block.max}`);
  else if (block.min !== undefined) parts.push(`at least ${block.min}`);
  else if (block.max !== undefined) parts.push(`at most ${block.max}`);
  if (input === 'numbers') parts.push('comma-separated');
  if (input === 'lines') parts.push('one per line');
  return parts.length > 0 ? h('span', { class: 'hint' }, ` (${parts.join(', ')})`) : null;
}
