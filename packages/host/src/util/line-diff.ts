/**
 * A line diff for summaries a model reads: unchanged lines are folded, changed ones shown with
 * `-`/`+`. Uses the classic LCS table, so it is meant for texts of a few thousand lines; longer
 * inputs fall back to "replaced N lines with M lines".
 */
export function lineDiff(before: string, after: string, options: { maxLines?: number; context?: number } = {}): string {
  if (before === after) return '(no change)';
  const a = before.split('\n');
  const b = after.split('\n');
  const maxLines = options.maxLines ?? 4000;
  if (a.length * b.length > maxLines * maxLines) {
    return `replaced ${a.length} lines with ${b.length} lines`;
  }
  const edits = diffLines(a, b);
  return renderEdits(edits, options.context ?? 1);
}

type Edit = { kind: ' ' | '-' | '+'; line: string };

function diffLines(a: string[], b: string[]): Edit[] {
  // lcs[i][j] = length of the longest common subsequence of a[i..] and b[j..]
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    const row = lcs[i]!;
    const next = lcs[i + 1]!;
    for (let j = b.length - 1; j >= 0; j--) {
      row[j] = a[i] === b[j] ? next[j + 1]! + 1 : Math.max(next[j]!, row[j + 1]!);
    }
  }
  const edits: Edit[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      edits.push({ kind: ' ', line: a[i]! });
      i++;
      j++;
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) {
      edits.push({ kind: '-', line: a[i++]! });
    } else {
      edits.push({ kind: '+', line: b[j++]! });
    }
  }
  while (i < a.length) edits.push({ kind: '-', line: a[i++]! });
  while (j < b.length) edits.push({ kind: '+', line: b[j++]! });
  return edits;
}

function renderEdits(edits: Edit[], context: number): string {
  const keep = edits.map((edit, index) =>
    edits.slice(Math.max(0, index - context), index + context + 1).some((e) => e.kind !== ' '),
  );
  const out: string[] = [];
  let skipped = 0;
  edits.forEach((edit, index) => {
    if (!keep[index]) {
      skipped++;
      return;
    }
    if (skipped > 0) out.push(`  ... ${skipped} unchanged line${skipped === 1 ? '' : 's'}`);
    skipped = 0;
    out.push(`${edit.kind} ${edit.line}`);
  });
  if (skipped > 0) out.push(`  ... ${skipped} unchanged line${skipped === 1 ? '' : 's'}`);
  return out.join('\n');
}
