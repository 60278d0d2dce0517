/** setTimeout's largest delay; a later deadline is reached in hops. */
const MAX_DELAY_MS = 2 ** 31 - 1;

interface Entry {
  readonly key: string;
  readonly at: number;
}

/**
 * Many deadlines on ONE timer: deadlines sit in a min-heap by due time and a single unref'd
 * setTimeout waits for the earliest. When it fires, every key due within `coalesceMs` is handed to
 * `onDue` at once, so monitors whose schedules are a few milliseconds apart share one wake-up.
 * A key is due at most once per `schedule`; it is out of the wheel until scheduled again.
 */
export class TimerWheel {
  private readonly due = new Map<string, number>();
  /** May hold stale entries (rescheduled or removed keys); they are dropped when they reach the top. */
  private readonly heap: Entry[] = [];
  private timer: NodeJS.Timeout | undefined;
  private armedFor: number | undefined;
  private stopped = false;

  constructor(
    private readonly onDue: (keys: string[]) => void,
    private readonly nowMs: () => number = Date.now,
    private readonly coalesceMs = 20,
  ) {}

  /** Sets (or moves) the key's deadline, epoch ms. */
  schedule(key: string, atMs: number): void {
    if (this.stopped) return;
    this.due.set(key, atMs);
    this.push({ key, at: atMs });
    this.arm();
  }

  remove(key: string): void {
    this.due.delete(key);
  }

  has(key: string): boolean {
    return this.due.has(key);
  }

  get size(): number {
    return this.due.size;
  }

  /** Clears the timer for good; later `schedule` calls are ignored. */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(): void {
    const next = this.peek();
    if (next === undefined || this.stopped) return;
    // A timer already set for this deadline or an earlier one re-arms itself when it fires.
    if (this.timer && this.armedFor !== undefined && this.armedFor <= next) return;
    if (this.timer) clearTimeout(this.timer);
    this.armedFor = next;
    this.timer = setTimeout(() => this.fire(), Math.min(MAX_DELAY_MS, Math.max(0, next - this.nowMs())));
    this.timer.unref();
  }

  private fire(): void {
    this.timer = undefined;
    this.armedFor = undefined;
    const limit = this.nowMs() + this.coalesceMs;
    const keys: string[] = [];
    for (let next = this.peek(); next !== undefined && next <= limit; next = this.peek()) {
      const entry = this.pop()!;
      this.due.delete(entry.key);
      keys.push(entry.key);
    }
    this.arm();
    if (keys.length > 0) this.onDue(keys);
  }

  /** The earliest live deadline, dropping stale entries on the way. */
  private peek(): number | undefined {
    for (;;) {
      const top = this.heap[0];
      if (top === undefined) return undefined;
      if (this.due.get(top.key) === top.at) return top.at;
      this.pop();
    }
  }

  private push(entry: Entry): void {
    const heap = this.heap;
    heap.push(entry);
    for (let i = heap.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (heap[parent]!.at <= heap[i]!.at) break;
      [heap[parent], heap[i]] = [heap[i]!, heap[parent]!];
      i = parent;
    }
  }

  private pop(): Entry | undefined {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length === 0 || last === undefined) return top;
    heap[0] = last;
    for (let i = 0; ; ) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < heap.length && heap[left]!.at < heap[smallest]!.at) smallest = left;
      if (right < heap.length && heap[right]!.at < heap[smallest]!.at) smallest = right;
      if (smallest === i) break;
      [heap[smallest], heap[i]] = [heap[i]!, heap[smallest]!];
      i = smallest;
    }
    return top;
  }
}
