// A line diff (longest common subsequence), computed in the browser for history and candidate views.
import { h } from './dom.js';

/** Lines of `before` and `after` as [{op: ' ' | '-' | '+', line}], in order. */
export function lineDiff(before, after) {
  const a = before.split('\n');
  const b = after.split('\n');
  // Trim the common head and tail so the table below stays small for small edits.
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) endA--, endB--;
  const x = a.slice(start, endA);
  const y = b.slice(start, endB);
  const n = x.length;
  const m = y.length;
  if (n * m > 4_000_000) return [...a.map((line) => ({ op: '-', line })), ...b.map((line) => ({ op: '+', line }))];
  const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) lcs[i][j] = x[i] === y[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  }
  const middle = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (x[i] === y[j]) middle.push({ op: ' ', line: x[i++] }), j++;
    else if (lcs[i + 1][j] >= lcs[i][j + 1]) middle.push({ op: '-', line: x[i++] });
    else middle.push({ op: '+', line: y[j++] });
  }
  while (i < n) middle.push({ op: '-', line: x[i++] });
  while (j < m) middle.push({ op: '+', line: y[j++] });
  const same = (line) => ({ op: ' ', line });
  return [...a.slice(0, start).map(same), ...middle, ...a.slice(endA).map(same)];
}

/** A resource's content as text for display and diffing: a text resource's text, else its JSON. */
export function contentText(content) {
  if (content && typeof content === 'object' && typeof content.text === 'string' && Object.keys(content).length === 1) return content.text;
  return JSON.stringify(content, null, 2);
}

/**
 * The line diff as elements (a line each, marked added or removed); with `context`, runs of
 * unchanged lines longer than that many on each side of a change are folded into one line.
 */
export function diffLines(before, after, context = Infinity) {
  const lines = lineDiff(before, after);
  const near = lines.map(() => context === Infinity);
  lines.forEach((d, i) => {
    if (d.op === ' ') return;
    for (let j = Math.max(0, i - context); j <= Math.min(lines.length - 1, i + context); j++) near[j] = true;
  });
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    if (!near[i]) {
      let j = i;
      while (j < lines.length && !near[j]) j++;
      out.push(h('div', { class: 'same muted' }, `… ${j - i} unchanged ${j - i === 1 ? 'line' : 'lines'}`));
      i = j - 1;
      continue;
    }
    const d = lines[i];
    out.push(h('div', { class: d.op === '+' ? 'add' : d.op === '-' ? 'del' : 'same' }, `${d.op} ${d.line}`));
  }
  return out;
}
