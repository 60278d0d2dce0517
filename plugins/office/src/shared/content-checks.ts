/**
 * Whole-content checks the JSON Schema cannot express, for a kind's `checkContent`: ids unique
 * among their siblings, and each item's own problems, each named by where it is.
 */
export function itemProblems<T extends { id: string }>(items: readonly T[], what: string, problemsOf: (item: T) => string[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    if (seen.has(item.id)) problems.push(`two ${what}s have id ${JSON.stringify(item.id)}; ${what} ids must be unique`);
    seen.add(item.id);
    problems.push(...problemsOf(item).map((problem) => `${what} ${JSON.stringify(item.id)}: ${problem}`));
  }
  return problems;
}
