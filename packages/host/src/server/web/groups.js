// A view's `group` block: a part of the content a person can point at (a slide, a block, a
// feature, an object). Choosing it (its Select button, or a click on the group outside its
// controls) saves the group's `selection` as the person's selection, which agents see when they
// read the resource; each group says who has it selected.
import { h } from './dom.js';

/** `ctx.select(selection)` saves the person's selection; `render(block)` draws an inner block. */
export function renderGroup(block, ctx, render) {
  const headingId = ctx.id('group');
  const marks = h('span', { class: 'group-marks', dataset: { groupMarks: '' } });
  const selectable = block.selection !== undefined;
  const select = selectable
    ? h('button', { type: 'button', class: 'group-select', 'aria-label': `Select ${block.title}`, 'aria-pressed': 'false', dataset: { groupSelect: block.title, focusKey: `group:${canonical(block.selection)}` }, onclick: () => ctx.select(block.selection) }, 'Select')
    : null;
  const section = h(
    'section',
    { class: 'group', 'aria-labelledby': headingId, dataset: { group: block.title } },
    h('div', { class: 'group-head' }, h('h4', { id: headingId }, block.title || '(untitled)'), marks, select),
    h('div', { class: 'group-body' }, block.blocks.map((inner) => render(inner))),
  );
  if (selectable) {
    section.dataset.selection = canonical(block.selection);
    // A click on the group itself (its text, a picture), not on one of its controls, chooses it too.
    section.addEventListener('click', (event) => {
      if (event.target instanceof Element && !event.target.closest('button, input, textarea, select, a, label, canvas, iframe, form')) ctx.select(block.selection);
    });
  }
  return section;
}

/**
 * Marks each group of `root` with who has it selected: `me` (the signed-in person's operator) as
 * "you". `selections` is the API's list ({person, selection}).
 */
export function markGroups(root, selections, me) {
  for (const section of root.querySelectorAll('section.group[data-selection]')) {
    const who = selections.filter((s) => s.selection !== null && canonical(s.selection) === section.dataset.selection).map((s) => s.person);
    const mine = who.includes(me);
    const names = [...(mine ? ['you'] : []), ...who.filter((p) => p !== me)];
    section.classList.toggle('selected', mine);
    section.querySelector('[data-group-marks]').textContent = names.length > 0 ? `Selected by ${names.join(', ')}` : '';
    const button = section.querySelector('button.group-select');
    if (button) {
      button.setAttribute('aria-pressed', String(mine));
      button.textContent = mine ? 'Selected' : 'Select';
    }
  }
}

/** JSON with object keys sorted, so two equal selections compare equal as text. */
export function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  return JSON.stringify(value);
}
