import { CoworkError } from '@cowork/host';

/** How much Blender work on scenes a process takes on at once, and how long a request waits. */
export interface SceneQueueLimits {
  /** Short-lived Blenders (exports and checks of a content no open session shows) running at once. */
  readonly maxBlenders: number;
  /**
   * Blenders starting at once (scenes' long-lived ones and short-lived ones alike): from launch until
   * the bridge listens. Others wait their turn, at most `waitMs`.
   */
  readonly maxStarting: number;
  /** How long a request may wait for its turn and its Blender (or a Blender start for its turn) before it fails with `busy`. */
  readonly waitMs: number;
  /** Requests that may wait at once (identical requests count once); one more fails with `busy` at once. */
  readonly maxQueued: number;
}

/**
 * Two Blenders take ~400 MB and the cores a small machine has; a burst of 32 waits about a minute.
 * Two starts at once take about a second or two each on a small machine, so twenty scenes opened
 * together come up within the wait.
 */
export const DEFAULT_LIMITS: SceneQueueLimits = { maxBlenders: 2, maxStarting: 2, waitMs: 120_000, maxQueued: 32 };

const ENV: Record<keyof SceneQueueLimits, string> = {
  maxBlenders: 'COWORK_BLENDER_MAX_PROCESSES',
  maxStarting: 'COWORK_BLENDER_MAX_STARTING',
  waitMs: 'COWORK_BLENDER_WAIT_MS',
  maxQueued: 'COWORK_BLENDER_MAX_QUEUED',
};

/** The defaults with `given` over them; each must be a positive integer. */
export function resolveLimits(given: Partial<SceneQueueLimits> = {}): SceneQueueLimits {
  const set = Object.entries(given).filter(([, value]) => value !== undefined);
  const limits: SceneQueueLimits = { ...DEFAULT_LIMITS, ...Object.fromEntries(set) };
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new CoworkError('invalid_input', `blender-bridge limit ${name} must be a positive integer, not ${JSON.stringify(value)}`, { limit: name, value });
    }
  }
  return limits;
}

/** Limits from COWORK_BLENDER_MAX_PROCESSES, _MAX_STARTING, _WAIT_MS and _MAX_QUEUED, where set. */
export function limitsFromEnv(env: NodeJS.ProcessEnv = process.env): SceneQueueLimits {
  const given: Partial<Record<keyof SceneQueueLimits, number>> = {};
  for (const [name, variable] of Object.entries(ENV) as [keyof SceneQueueLimits, string][]) {
    const text = env[variable]?.trim();
    if (!text) continue;
    if (!/^\d+$/.test(text)) throw new CoworkError('invalid_input', `${variable} must be a positive integer, not ${JSON.stringify(text)}`, { variable, value: text });
    given[name] = Number(text);
  }
  return resolveLimits(given);
}
