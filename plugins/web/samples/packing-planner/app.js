// Packing planner: items go into a bag of limited volume. An item that does not fit is refused
// with a message; Undo goes back one change (add, bag change or reset); Reset empties the bag.
'use strict';

const PRESETS = {
  tent: { name: 'Tent', volume: 12 },
  'sleeping-bag': { name: 'Sleeping bag', volume: 9 },
  cooler: { name: 'Cooler', volume: 10 },
  stove: { name: 'Stove', volume: 2 },
};

const $ = (id) => document.getElementById(id);
let state = { capacity: Number($('bag').value), items: [] };
const past = [];

function packed(s) {
  return s.items.reduce((sum, item) => sum + item.volume, 0);
}

function change(next, message) {
  past.push(state);
  state = next;
  say(message, 'ok');
  render();
}

function say(text, kind) {
  $('message').textContent = text;
  $('message').className = kind;
}

function render() {
  const used = packed(state);
  $('bag').value = String(state.capacity);
  $('total').textContent = `${used} / ${state.capacity} L`;
  $('free').textContent = `(${state.capacity - used} L free)`;
  $('items').replaceChildren(
    ...state.items.map((item) => {
      const li = document.createElement('li');
      li.textContent = `${item.name} `;
      const size = document.createElement('span');
      size.textContent = `${item.volume} L`;
      li.append(size);
      return li;
    }),
  );
  $('undo').disabled = past.length === 0;
  $('reset').disabled = state.items.length === 0;
}

$('preset').addEventListener('change', () => {
  const preset = PRESETS[$('preset').value];
  if (!preset) return;
  $('name').value = preset.name;
  $('volume').value = String(preset.volume);
});

$('add-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const name = $('name').value.trim();
  const volume = Number($('volume').value);
  if (name === '') return say('Give the item a name.', 'refused');
  if (!Number.isInteger(volume) || volume <= 0) return say('The volume must be a whole number of litres above 0.', 'refused');
  const free = state.capacity - packed(state);
  if (volume > free) return say(`"${name}" (${volume} L) does not fit: only ${free} L left.`, 'refused');
  change({ ...state, items: [...state.items, { name, volume }] }, `Packed "${name}" (${volume} L).`);
  $('name').value = '';
  $('volume').value = '';
  $('preset').value = '';
});

$('bag').addEventListener('change', () => {
  const capacity = Number($('bag').value);
  const used = packed(state);
  if (used > capacity) {
    say(`The packed items take ${used} L: they do not fit in a ${capacity} L bag.`, 'refused');
    return render();
  }
  change({ ...state, capacity }, `Bag changed to ${capacity} L.`);
});

$('undo').addEventListener('click', () => {
  if (past.length === 0) return;
  state = past.pop();
  say('Undone.', 'ok');
  render();
});

$('reset').addEventListener('click', () => {
  change({ ...state, items: [] }, 'Bag emptied.');
});

render();
