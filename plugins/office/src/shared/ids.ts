/**
 * The first `<prefix>-<n>` (n = 1, 2, ...) that no item has. Ops a person makes in the page (add a
 * slide, add a paragraph) leave the id out and the kind picks one here, from the content the op
 * lands on, so the same op accepted later on a newer revision still gets an id that is free.
 */
export function freshId(prefix: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  for (let n = 1; ; n++) if (!used.has(`${prefix}-${n}`)) return `${prefix}-${n}`;
}
