import { renderOffice, type OfficeFile, type Render } from './render';

export { renderKey } from './render-key';

interface Entry {
  readonly promise: Promise<Render>;
  readonly controller: AbortController;
  waiters: number;
  settled: boolean;
}

/**
 * Renders keyed by content, kept in a small LRU in memory, so that the web page's image, the png
 * and the pdf export and the agent tools of one revision run LibreOffice once. Callers asking for a
 * render in progress share it; it is stopped only when every caller has aborted, and a failed
 * render is forgotten so that the next call tries again.
 */
export class RenderCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly capacity = 8,
    private readonly render: (file: OfficeFile, signal: AbortSignal) => Promise<Render> = renderOffice,
  ) {}

  get(key: string, makeFile: (signal: AbortSignal) => Promise<OfficeFile>, signal: AbortSignal): Promise<Render> {
    signal.throwIfAborted();
    let entry = this.entries.get(key);
    if (entry) this.entries.delete(key);
    else entry = this.start(key, makeFile);
    this.entries.set(key, entry);
    this.evict();
    return this.wait(key, entry, signal);
  }

  private start(key: string, makeFile: (signal: AbortSignal) => Promise<OfficeFile>): Entry {
    const controller = new AbortController();
    const promise = makeFile(controller.signal).then((file) => this.render(file, controller.signal));
    const entry: Entry = { promise, controller, waiters: 0, settled: false };
    promise.then(
      () => (entry.settled = true),
      () => {
        entry.settled = true;
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    return entry;
  }

  /** The entry's render for one caller; the last caller to abort stops the render and waits for its clean-up. */
  private wait(key: string, entry: Entry, signal: AbortSignal): Promise<Render> {
    entry.waiters++;
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        entry.waiters--;
        if (entry.waiters > 0 || entry.settled) return reject(signal.reason);
        if (this.entries.get(key) === entry) this.entries.delete(key);
        entry.controller.abort(signal.reason);
        entry.promise.then(
          () => reject(signal.reason),
          () => reject(signal.reason),
        );
      };
      signal.addEventListener('abort', onAbort, { once: true });
      entry.promise.then(
        (render) => {
          signal.removeEventListener('abort', onAbort);
          resolve(render);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      );
    });
  }

  private evict(): void {
    for (const key of this.entries.keys()) {
      if (this.entries.size <= this.capacity) return;
      this.entries.delete(key);
    }
  }
}

/**
 * The process's render cache. Shared on purpose: renders are immutable and keyed by content, and
 * LibreOffice runs one conversion at a time per process anyway (see ./libreoffice.ts).
 */
export const renderCache = new RenderCache();
