// A view's `action` block: a button that commits the kind's op on the revision shown (add a slide,
// delete a block), or, with `inputs`, a small form whose values go into the op first. An action
// never lands on a revision the person did not see: if someone committed meanwhile, nothing is
// done, the page moves to the new revision and the person is told to look and try again.
import { api, ApiError, commitOp, describe, operator, path } from './api.js';
import { defaultInput, editKey, formatValue, parseValue } from './blocks.js';
import { h, say } from './dom.js';

/** `ctx.edits` keeps what was last said about the action; `ctx.revision()` and `ctx.sync()` as in edits.js. */
export function renderAction(block, ctx) {
  const id = ctx.id('action');
  const status = h('p', { id: `${id}-status`, class: 'field-status', role: 'status', 'aria-live': 'polite', dataset: { actionStatus: block.label } });
  const edit = editKey(block);
  const note = ctx.edits.note(edit);
  if (note) say(status, note.text, note.error);
  const inputs = (block.inputs || []).map((spec, i) => {
    const input = spec.input || defaultInput(spec.value);
    const controlId = `${id}-${i}`;
    const control =
      input === 'textarea' || input === 'lines'
        ? h('textarea', { id: controlId, rows: 3 })
        : h('input', { id: controlId, type: 'text', inputmode: input === 'number' ? 'decimal' : undefined, autocomplete: 'off' });
    control.value = formatValue(spec.value ?? '', input);
    control.dataset.focusKey = `action:${block.label}:${spec.field}`;
    control.dataset.actionInput = spec.field;
    return { spec: { ...spec, input }, control, label: h('label', { for: controlId }, spec.label) };
  });
  const run = async () => {
    const op = { ...block.op };
    for (const { spec, control } of inputs) {
      const parsed = parseValue(spec, control.value);
      if (parsed.problem) return ctx.edits.refuse(edit, status, parsed.problem);
      op[spec.field] = parsed.value;
    }
    const base = ctx.revision();
    button.disabled = true;
    try {
      const result = await commitOp(ctx.resourceId, base, op);
      ctx.edits.tell(edit, status, `${block.label}: done, revision ${result.revision}.`);
      await ctx.sync();
    } catch (error) {
      if (error instanceof ApiError && error.code === 'revision_conflict') {
        // It was meant for the revision the person saw; the kept candidate is not wanted.
        void api('POST', path('candidates', error.details.candidateId, 'reject'), { operator: operator() }).catch(() => undefined);
        ctx.edits.tell(edit, status, `Not done: the resource moved to revision ${error.details.currentRevision} while you looked at ${base}. Look at it now and try again.`, true);
        await ctx.sync();
      } else ctx.edits.tell(edit, status, `Not done: ${describe(error)}`, true);
    } finally {
      button.disabled = false;
    }
  };
  const button = h('button', { type: inputs.length > 0 ? 'submit' : 'button', dataset: { action: block.label, focusKey: `action:${block.label}` } }, block.label);
  if (inputs.length === 0) {
    button.addEventListener('click', () => void run());
    return h('div', { class: 'action' }, button, status);
  }
  return h(
    'form',
    {
      class: 'action action-form',
      'aria-label': block.label,
      dataset: { actionForm: block.label },
      onsubmit: (event) => {
        event.preventDefault();
        void run();
      },
    },
    inputs.map(({ label, control }) => h('div', { class: 'action-input' }, label, control)),
    button,
    status,
  );
}
