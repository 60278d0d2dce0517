import { setTimeout as delay } from 'node:timers/promises';
import { CoworkError } from '../errors';
import type { ApprovalRecord, ApprovalStatus } from '../store/approval-records';
import type { Json, Operator } from '../store/records';
import type { Store } from '../store/store';
import { Emitter } from '../util/emitter';
import { newId } from '../util/ids';
import type { Impact } from './policy';

/** What a high-impact call asks a person to approve. */
export interface ApprovalRequest {
  readonly taskId: string;
  readonly agentId: string;
  /** The call's idempotency key: the same call after a restart finds the same approval. */
  readonly callKey: string;
  readonly tool: string;
  readonly impact: Impact;
  readonly input: Json;
}

/** How long a waiting call goes between looks at the store (a decision made by another process). */
const POLL_MS = 500;

/**
 * Approvals of high-impact tool calls. The call asks (`request`, once per call) and waits
 * (`decided`); a person decides (`decide`) over HTTP, WebSocket or the CLI. The store is the record:
 * who decided, when, and why, and a call that was waiting when the host stopped finds its approval
 * again when its turn is resumed. Only a person (`human:<name>`) decides; nothing an agent or a tool
 * result says can.
 */
export class Approvals {
  private readonly changes = new Emitter<ApprovalRecord>();

  constructor(
    private readonly store: Store,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The call's approval: the one it asked for before (a resumed call), or a new pending one. */
  async request(request: ApprovalRequest): Promise<ApprovalRecord> {
    const { record, created } = await this.store.transaction(async (tx) => {
      const existing = await tx.approvals.byCallKey(request.callKey);
      if (existing) return { record: existing, created: false };
      const record: ApprovalRecord = {
        id: newId('apr'),
        ...request,
        status: 'pending',
        requestedAt: this.now().toISOString(),
        decidedBy: null,
        decidedAt: null,
        reason: null,
      };
      await tx.approvals.insert(record);
      return { record, created: true };
    });
    if (created) this.changes.emit(record);
    return record;
  }

  /** Resolves once the approval is decided (by this process or another); rejects when `signal` aborts. */
  async decided(id: string, signal: AbortSignal): Promise<ApprovalRecord> {
    let wake: () => void = () => undefined;
    const stop = this.changes.subscribe((record) => {
      if (record.id === id) wake();
    });
    try {
      for (;;) {
        const woken = new Promise<void>((resolve) => (wake = resolve));
        const record = await this.get(id);
        if (record.status !== 'pending') return record;
        signal.throwIfAborted();
        await Promise.race([woken, delay(POLL_MS, undefined, { signal })]);
      }
    } finally {
      stop();
    }
  }

  /** A person's decision. Refused for anyone but a person, and for an approval already decided. */
  async decide(id: string, decision: 'approved' | 'denied', operator: Operator, reason?: string): Promise<ApprovalRecord> {
    if (!operator.startsWith('human:')) {
      throw new CoworkError('forbidden', `only a person decides an approval; ${operator} is not one`, { operator });
    }
    if (reason !== undefined && (typeof reason !== 'string' || reason.length > 2000)) {
      throw new CoworkError('invalid_input', 'reason must be a string of at most 2000 characters', { field: 'reason' });
    }
    const at = this.now().toISOString();
    const record = await this.store.transaction(async (tx) => {
      const current = await tx.approvals.get(id);
      if (!current) throw new CoworkError('not_found', `no approval ${JSON.stringify(id)}`, { approvalId: id });
      if (!(await tx.approvals.decide(id, { status: decision, by: operator, at, reason: reason ?? null }))) {
        throw new CoworkError('invalid_transition', `approval ${id} was already ${current.status} by ${current.decidedBy ?? 'someone'}`, { approvalId: id, status: current.status });
      }
      return { ...current, status: decision, decidedBy: operator, decidedAt: at, reason: reason ?? null };
    });
    this.changes.emit(record);
    return record;
  }

  async get(id: string): Promise<ApprovalRecord> {
    const record = await this.store.read((tx) => tx.approvals.get(id));
    if (!record) throw new CoworkError('not_found', `no approval ${JSON.stringify(id)}`, { approvalId: id });
    return record;
  }

  list(query: { status?: ApprovalStatus; taskId?: string } = {}): Promise<ApprovalRecord[]> {
    return this.store.read((tx) => tx.approvals.list(query));
  }

  /** Every approval requested or decided in this process (for live clients). */
  onChange(listener: (record: ApprovalRecord) => void): () => void {
    return this.changes.subscribe(listener);
  }
}
