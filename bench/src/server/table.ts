/** A plain text table: the first `textColumns` columns align left, the figures after them right. */
export function formatTable(columns: readonly string[], rows: readonly (readonly string[])[], textColumns = 1): string {
  const widths = columns.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]?.length ?? 0)));
  const line = (cells: readonly string[]): string =>
    cells.map((cell, i) => (i < textColumns ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ').trimEnd();
  return [line(columns), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

export function ms(value: number): string {
  return value.toFixed(2);
}

export function count(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}
