import type { ConfidenceInterval } from './bootstrap';
import type { BudgetDifference, EloRating } from './pairwise';
import type { TaskBudget } from './results-format';

/*
 * How the terminal table and the HTML report write numbers, so both show the same figures. Plain
 * text only: the HTML report escapes what these return.
 */

/** `digits` decimals, with thousands grouped by commas (locale-independent): 1234.5 → "1,234.5". */
export function fixed(value: number, digits = 1): string {
  if (!Number.isFinite(value)) return String(value);
  const [whole, fraction] = Math.abs(value).toFixed(digits).split('.');
  const grouped = (whole ?? '0').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const sign = value < 0 && Number(Math.abs(value).toFixed(digits)) !== 0 ? '-' : '';
  return fraction === undefined ? `${sign}${grouped}` : `${sign}${grouped}.${fraction}`;
}

/** "41.7–75.0" */
export function formatCi(ci: ConfidenceInterval, digits = 1): string {
  return `${fixed(ci.low, digits)}–${fixed(ci.high, digits)}`;
}

/** "95% CI" for an interval's level. */
export function ciLabel(ci: ConfidenceInterval): string {
  return `${fixed(ci.level * 100, ci.level * 100 === Math.round(ci.level * 100) ? 0 : 1)}% CI`;
}

/** "1043.7" (no thousands separator), or "≥ 1311.3 (unbounded)" / "≤ 688.7 (unbounded)" where the formula is infinite. */
export function formatElo(rating: EloRating): string {
  const value = rating.elo.toFixed(1);
  if (rating.unbounded === 'above') return `≥ ${value} (unbounded)`;
  if (rating.unbounded === 'below') return `≤ ${value} (unbounded)`;
  return value;
}

/** "200,000 tokens, 40 turns, 600 s"; a null limit reads "no … limit". */
export function formatBudget(budget: TaskBudget | null): string {
  if (budget === null) return 'varies by task';
  const part = (value: number | null, unit: string, name: string): string =>
    value === null ? `no ${name} limit` : `${fixed(value, 0)} ${unit}`;
  return [part(budget.tokens, 'tokens', 'token'), part(budget.turns, 'turns', 'turn'), part(budget.seconds, 's', 'time')].join(', ');
}

/** "q: tokens 200,000 against no limit" */
export function formatBudgetDifference(difference: BudgetDifference): string {
  const values = (list: readonly (number | null)[]): string =>
    list.map((v) => (v === null ? 'no limit' : fixed(v, 0))).join(' and ');
  return `${difference.task}: ${difference.field} ${values(difference.a)} against ${values(difference.b)}`;
}
