import { availableParallelism } from 'node:os';

/*
 * The size of V8's background thread pool for a long-running host (`cowork serve`).
 *
 * Node starts 4 background threads whatever the machine (its `--v8-pool-size` default). They
 * compile hot functions and do the garbage collector's concurrent and parallel work. On a machine
 * with few cores they take the event loop's core in turn: a turn that takes 0.4 ms waits a
 * scheduler slice instead, 4 to 5 ms on a 2-core machine, while the process is young and compiling
 * (bench:turns, the cold-process rows). Leaving the event loop a core of its own keeps those turns
 * short; on 5 cores or more Node's default already does. The pool size is a Node option, read
 * once at start, so it is given on the command line: `tools/serve.sh` (what `npm start` runs)
 * does it, and `cowork serve` started without it says so on a machine where it matters.
 */

/** Node's `--v8-pool-size` default. */
export const NODE_DEFAULT_POOL_SIZE = 4;

/** The background threads a host on `cores` cores gets: one core left to the event loop, at most Node's default. */
export function poolSizeFor(cores: number): number {
  return Math.min(NODE_DEFAULT_POOL_SIZE, Math.max(1, Math.floor(cores) - 1));
}

/** The process's pool as started: the size given (command line first, then NODE_OPTIONS, as Node reads them), or Node's default. */
export interface NodePool {
  readonly threads: number;
  readonly cores: number;
  /** `flag`: `--v8-pool-size` was given; `node default`: it was not. */
  readonly setBy: 'flag' | 'node default';
}

/** The pool this process was started with. */
export function currentNodePool(execArgv: readonly string[] = process.execArgv, nodeOptions: string | undefined = process.env.NODE_OPTIONS, cores = availableParallelism()): NodePool {
  // Node reads NODE_OPTIONS first and the command line after it, so the command line's wins.
  const given = poolSizeGiven(execArgv) ?? poolSizeGiven(nodeOptions?.split(/\s+/) ?? []);
  return given === null ? { threads: NODE_DEFAULT_POOL_SIZE, cores, setBy: 'node default' } : { threads: given, cores, setBy: 'flag' };
}

/** The last `--v8-pool-size=N` or `--v8-pool-size N` in `args`, or null. */
function poolSizeGiven(args: readonly string[]): number | null {
  let size: number | null = null;
  args.forEach((arg, i) => {
    const value = arg.startsWith('--v8-pool-size=') ? arg.slice('--v8-pool-size='.length) : arg === '--v8-pool-size' ? args[i + 1] : undefined;
    if (value !== undefined && /^\d+$/.test(value)) size = Number(value);
  });
  return size;
}

/**
 * The Node options to start `cowork serve` with: the sized pool, or nothing where the user has
 * already given one (in NODE_OPTIONS: the command line would override it).
 */
export function serveNodeFlags(nodeOptions: string | undefined = process.env.NODE_OPTIONS, cores = availableParallelism()): string[] {
  return currentNodePool([], nodeOptions, cores).setBy === 'flag' ? [] : [`--v8-pool-size=${poolSizeFor(cores)}`];
}

/** What to tell someone whose host runs Node's default pool where it shares the event loop's core; null where it does not. */
export function poolNotice(pool: NodePool): string | null {
  const size = poolSizeFor(pool.cores);
  if (pool.setBy === 'flag' || size === pool.threads) return null;
  return (
    `Node's ${pool.threads} background threads share this machine's ${pool.cores} cores with the event loop, which makes some turns and requests wait; ` +
    `start with node --v8-pool-size=${size} (tools/serve.sh and npm start do)`
  );
}
