/**
 * A FIFO async mutex: `run(fn)` starts `fn` only after every earlier `run` has settled.
 * Used to keep one store transaction at a time on a connection while its body awaits.
 */
export class Mutex {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.tail.then(fn, fn);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
