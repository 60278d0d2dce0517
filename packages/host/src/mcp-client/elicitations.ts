import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { CoworkError } from '../errors';
import type { Json } from '../store/records';
import { newId } from '../util/ids';
import { isPlainObject } from '../util/json';

/** A server's question to the person, waiting for an answer. */
export interface PendingElicitation {
  readonly id: string;
  readonly server: string;
  /** The task whose tool call the server is serving, when one is. */
  readonly taskId: string | null;
  readonly message: string;
  readonly requestedSchema: Json;
  readonly createdAt: string;
}

const ACTIONS = new Set(['accept', 'decline', 'cancel']);

/**
 * Elicitation requests in flight. The tool call that caused one waits (the SDK keeps the request
 * open) until a person answers it (`answer`), or its call is cancelled (the request's signal).
 */
export class Elicitations {
  private readonly pending = new Map<string, { info: PendingElicitation; resolve: (result: ElicitResult) => void }>();

  constructor(private readonly now: () => Date) {}

  ask(server: string, taskId: string | null, params: ElicitRequest['params'], signal: AbortSignal): { info: PendingElicitation; answer: Promise<ElicitResult> } {
    const info: PendingElicitation = {
      id: newId('elicit'),
      server,
      taskId,
      message: params.message,
      requestedSchema: ('requestedSchema' in params ? params.requestedSchema : {}) as Json,
      createdAt: this.now().toISOString(),
    };
    const answer = new Promise<ElicitResult>((resolve) => {
      this.pending.set(info.id, { info, resolve });
      signal.addEventListener('abort', () => this.settle(info.id, { action: 'cancel' }), { once: true });
    });
    return { info, answer };
  }

  list(): PendingElicitation[] {
    return [...this.pending.values()].map((p) => p.info);
  }

  /** A person's answer; `not_found` when none is waiting under that id, `invalid_input` for a bad shape. */
  answer(id: string, answer: unknown): PendingElicitation {
    const entry = this.pending.get(id);
    if (!entry) throw new CoworkError('not_found', `no elicitation ${JSON.stringify(id)} is waiting for an answer`, { elicitationId: id });
    const body = isPlainObject(answer) ? answer : {};
    if (typeof body.action !== 'string' || !ACTIONS.has(body.action)) throw new CoworkError('invalid_input', 'an answer needs "action": "accept", "decline" or "cancel"');
    if (body.content !== undefined && !isPlainObject(body.content)) throw new CoworkError('invalid_input', '"content" must be an object of the fields asked for');
    this.settle(id, { action: body.action as ElicitResult['action'], ...(body.action === 'accept' ? { content: (body.content ?? {}) as ElicitResult['content'] } : {}) });
    return entry.info;
  }

  /** Cancels everything still waiting (the host is closing). */
  cancelAll(): void {
    for (const id of [...this.pending.keys()]) this.settle(id, { action: 'cancel' });
  }

  private settle(id: string, result: ElicitResult): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.pending.delete(id);
    entry.resolve(result);
  }
}
