/**
 * The fewest items whose moves explain the new order: every kept item outside a longest run that
 * stayed in the old order. Moving one item to the top moves one item, not all it passed. `kept`
 * lists the items both orders hold, in the new order, with each one's old position.
 */
export function movedIds(kept: readonly { id: string; from: number }[]): Set<string> {
  // Patience sorting: tails[k] is the index in `kept` ending the best increasing run of length k + 1.
  const tails: number[] = [];
  const previous: number[] = [];
  kept.forEach(({ from }, i) => {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (kept[tails[mid]!]!.from < from) lo = mid + 1;
      else hi = mid;
    }
    previous[i] = lo > 0 ? tails[lo - 1]! : -1;
    tails[lo] = i;
  });
  const stayed = new Set<string>();
  for (let i = tails.length > 0 ? tails[tails.length - 1]! : -1; i >= 0; i = previous[i]!) stayed.add(kept[i]!.id);
  return new Set(kept.filter((k) => !stayed.has(k.id)).map((k) => k.id));
}
