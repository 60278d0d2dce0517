import type { MeasureWindow } from '../clock';
import type { TargetSpec } from './commit-target';

/** What the main thread hands each worker when it starts it. */
export interface WorkerInput {
  readonly spec: TargetSpec;
  /** 0-based; names the writer and picks its document. */
  readonly index: number;
}

/** The conversation between the main thread and one worker, in order. */
export type WorkerMessage =
  /** The worker has opened its own connection and waits for the window. */
  | { readonly type: 'ready' }
  /** Main to worker: run until `window.end`. Sent once every worker is ready, so all start together. */
  | { readonly type: 'start'; readonly window: MeasureWindow }
  | {
      readonly type: 'done';
      readonly commits: number;
      readonly conflicts: number;
      readonly latenciesMs: Float64Array;
      readonly lastRevision: number;
    };
