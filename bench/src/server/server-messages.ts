/**
 * Which server a worker thread runs: the real cowork server (driven with the owner's token, or with
 * a person's, which is looked up in the store on every request; or with group commit off: each commit
 * its own COMMIT and fsync), or a bare fastify route to compare with (answering at once, or doing the
 * same compare-and-set in SQLite by hand).
 */
export type ServerKind = 'cowork' | 'cowork-person' | 'cowork-unbatched' | 'bare' | 'bare-cas';

/** What the main thread hands the server's worker when it starts it. */
export interface ServerWorkerInput {
  readonly kind: ServerKind;
}

/** A resource and the revision it was at when handed out. */
export interface ResourceHead {
  readonly id: string;
  readonly revision: number;
}

/** Main thread to worker. The worker answers each request in order, one reply per request. */
export type ServerRequest =
  /** `count` new text resources (the bare server hands out names only). */
  | { readonly type: 'create'; readonly count: number }
  /** One commit appending `text` on top of the revision the worker last saw (cowork only). */
  | { readonly type: 'commit'; readonly resourceId: string; readonly text: string }
  /** How many revisions were committed after the given heads (cowork only; the bare server stores nothing). */
  | { readonly type: 'count'; readonly since: readonly ResourceHead[] }
  | { readonly type: 'stop' };

/** Worker to main thread: `ready` once listening, then one reply per request. */
export type ServerReply =
  | { readonly type: 'ready'; readonly url: string; readonly token: string }
  | { readonly type: 'created'; readonly resources: readonly ResourceHead[] }
  /** `commitMs`: the commit call alone, timed in the worker. */
  | { readonly type: 'committed'; readonly revision: number; readonly commitMs: number }
  /** `walRestarts`: see ServerTarget.walRestarts. */
  | { readonly type: 'counted'; readonly commits: number | null; readonly walRestarts: number | null }
  | { readonly type: 'stopped' };
