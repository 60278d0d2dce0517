import type { Json } from '../store/records';

/**
 * Takes one observation of a monitor's target. Deterministic checks only (no model): the same
 * state of the world gives the same JSON, so "changed" is plain JSON inequality. An observer never
 * throws for a target that is missing or unreachable: that is an observation (`{error: ...}`).
 * It may keep memo state between calls (a file's stat signature) to make unchanged polls cheap.
 */
export interface Observer {
  observe(signal: AbortSignal): Promise<Json>;
}
