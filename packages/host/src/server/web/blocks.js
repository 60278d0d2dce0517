// What the page needs to know about view blocks apart from drawing them: how a field's value is
// typed as text and read back (checked in the page before anything is sent), and finding a block.

/**
 * What the page keeps a control's unsaved edit and messages by: a field's stable `key` when it has
 * one (its item's id, so the edit stays with its slide when slides before it come or go and the
 * labels, which follow position, move), else its label (unique within a view).
 */
export function editKey(block) {
  return block.key !== undefined ? `key:${block.key}` : `label:${block.label}`;
}

/** The block whose edit key (`editKey`) is `key`, inside groups too. */
export function findBlock(blocks, key) {
  for (const block of blocks) {
    if (block.type === 'group') {
      const inner = findBlock(block.blocks, key);
      if (inner) return inner;
    } else if (editKey(block) === key) return block;
  }
  return undefined;
}

/** A field's value as the text its control holds. */
export function shownValue(block) {
  return formatValue(block.value, block.input);
}

export function formatValue(value, input = defaultInput(value)) {
  if (value === undefined) return '';
  if (input === 'lines') return Array.isArray(value) ? value.join('\n') : String(value);
  if (input === 'numbers') return Array.isArray(value) ? value.join(', ') : String(value);
  return String(value);
}

/** The input a field has when its block names none: by the type of its value. */
export function defaultInput(value) {
  if (typeof value === 'number') return 'number';
  if (Array.isArray(value)) return value.some((v) => typeof v === 'number') ? 'numbers' : 'lines';
  return 'text';
}

/**
 * The value an op receives for what the person typed, or `{problem}` saying what to type instead.
 * `spec` is `{label, input, min, max}`.
 */
export function parseValue(spec, raw) {
  const input = spec.input;
  if (input === 'number') {
    const problem = numberProblem(spec, raw.trim());
    return problem ? { problem } : { value: Number(raw.trim()) };
  }
  if (input === 'numbers') {
    const parts = raw.trim() === '' ? [] : raw.split(',').map((p) => p.trim());
    for (const part of parts) {
      const problem = numberProblem(spec, part);
      if (problem) return { problem };
    }
    return { value: parts.map(Number) };
  }
  if (input === 'lines') {
    const lines = raw.split('\n');
    if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
    return { value: lines };
  }
  return { value: raw };
}

function numberProblem(spec, text) {
  const n = Number(text);
  if (text === '' || !Number.isFinite(n)) return `${spec.label}: "${text}" is not a number. Type a number${range(spec)}; nothing was saved.`;
  if ((spec.min !== undefined && n < spec.min) || (spec.max !== undefined && n > spec.max)) return `${spec.label}: ${n} is out of range. Type a number${range(spec)}; nothing was saved.`;
  return undefined;
}

function range(spec) {
  if (spec.min !== undefined && spec.max !== undefined) return ` from ${spec.min} to ${spec.max}`;
  if (spec.min !== undefined) return ` of at least ${spec.min}`;
  if (spec.max !== undefined) return ` of at most ${spec.max}`;
  return '';
}
