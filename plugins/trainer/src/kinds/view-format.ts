import type { Parent } from './checkpoint-kind';

/** Small text forms the trainer's views share (the page shows blocks as plain text). */

export const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;

/** A change in all-pass rate, in points with a sign: `+50.0 points`. */
export const points = (x: number): string => `${x > 0 ? '+' : ''}${(100 * x).toFixed(1)} points`;

/** Where weights start, with the full hash: lineage is read by hash, so none is cut short. */
export function parentText(parent: Parent): string {
  return parent.type === 'base' ? 'base (a fresh initialisation from the seed)' : `checkpoint ${parent.checkpointId} (sha256 ${parent.hash})`;
}

export function dash(text: string | null | undefined): string {
  return text === null || text === undefined || text === '' ? '—' : text;
}
