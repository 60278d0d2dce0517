// Any kind is editable by a person through its ops, typed as JSON and committed on the revision
// shown, like an agent's commit; the text being typed survives live updates (the form is drawn
// once per opened resource and never redrawn by them).
import { ApiError, commitOp, describe } from './api.js';
import { h } from './dom.js';

/**
 * `current()`: the open resource's `{id, revision}`; `sync()` brings the page to the newest revision.
 * Folded away unless `open` (a kind without a view has no other way to be changed).
 */
export function renderOpForm(kind, current, sync, open = false) {
  const input = h('textarea', { id: 'op-json', rows: 4, spellcheck: 'false' });
  const status = h('p', { id: 'op-status', role: 'status', 'aria-live': 'polite' });
  const submit = async () => {
    let op;
    try {
      op = JSON.parse(input.value);
    } catch {
      status.textContent = 'The op is not valid JSON.';
      return;
    }
    const { id, revision: base } = current();
    try {
      const result = await commitOp(id, base, op);
      input.value = '';
      status.textContent = `Committed revision ${result.revision}.`;
      await sync();
    } catch (error) {
      if (error instanceof ApiError && error.code === 'revision_conflict') {
        status.textContent = `The resource moved to revision ${error.details.currentRevision}; your op was kept as candidate ${error.details.candidateId}. Look at the new revision and commit again.`;
        await sync();
      } else status.textContent = describe(error);
    }
  };
  return h(
    'details',
    { class: 'op-form', open },
    h('summary', {}, 'Change it with an op (JSON)'),
    h('label', { for: 'op-json' }, `An op of the ${kind} kind, committed on the revision shown`),
    input,
    h('button', { type: 'button', id: 'op-commit', onclick: () => void submit() }, 'Commit op'),
    status,
  );
}
