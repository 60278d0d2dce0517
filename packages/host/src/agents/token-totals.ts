import type { Store, StoreTx } from '../store/store';

export interface TokenTotals {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly total: number;
}

/**
 * A task's (or one agent's) model-call token totals, kept up to date by reading only the calls
 * recorded since the last read: the budget check and Main's projection ask every turn, and summing
 * the whole log each time grew with the task. Calls are only ever added, with increasing ids, so
 * the running sum equals the full one (other processes' calls included).
 */
export class RunningTokenTotals {
  private lastId = 0;
  private inputTokens = 0;
  private outputTokens = 0;

  constructor(
    private readonly taskId: string,
    private readonly agentId?: string,
  ) {}

  read(store: Store): Promise<TokenTotals> {
    return store.read((tx) => this.readIn(tx));
  }

  /** The same within a read transaction the caller has open (Main's projection reads all it needs in one). */
  async readIn(tx: StoreTx): Promise<TokenTotals> {
    const added = await tx.modelCalls.totals(this.taskId, this.agentId, this.lastId);
    this.lastId = added.lastId;
    this.inputTokens += added.inputTokens;
    this.outputTokens += added.outputTokens;
    return { inputTokens: this.inputTokens, outputTokens: this.outputTokens, total: this.inputTokens + this.outputTokens };
  }
}
