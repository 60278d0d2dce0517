/**
 * One timer for all jobs: calls `tick` every `intervalMs`, never two ticks at once. The timer is
 * unref'd, so watching never keeps a process alive; `stop` waits for a tick in flight, so that
 * nothing touches the store after its owner closed it.
 */
export class JobWatcher {
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;

  constructor(
    private readonly tick: () => Promise<void>,
    private readonly intervalMs: number,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.run(), this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.inFlight;
  }

  private run(): void {
    if (this.inFlight) return;
    this.inFlight = this.tick()
      .catch((error: unknown) => this.onError(error))
      .finally(() => {
        this.inFlight = undefined;
      });
  }
}
