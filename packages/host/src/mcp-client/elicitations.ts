import Ajv, { type ValidateFunction } from 'ajv';
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { CoworkError } from '../errors';
import type { Json } from '../store/records';
import { newId } from '../util/ids';
import { isPlainObject } from '../util/json';
import { schemaProblems } from '../util/json-schema';

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

/** How an elicitation ended: a person's action, or withdrawn (its call or task was cancelled, or the host closed). */
export type ElicitationOutcome = ElicitResult['action'] | 'withdrawn';

const ACTIONS = new Set(['accept', 'decline', 'cancel']);
/** Settled ids remembered so that answering twice says so (instead of "unknown"). */
const SETTLED_KEPT = 500;

interface Entry {
  readonly info: PendingElicitation;
  readonly validate: ValidateFunction;
  readonly resolve: (result: ElicitResult) => void;
  readonly unlink: () => void;
}

// Formats (email, date, uri) are not checked here (the server checks its own input); unknown ones are ignored quietly.
const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false, useDefaults: false, validateFormats: false, logger: false });

/**
 * Elicitation requests in flight. The tool call that caused one waits (the SDK keeps the request
 * open) until a person answers it (`answer`), or it is withdrawn: the server cancels its request,
 * the tool call that asked ends or is cancelled (with its task), or the host closes.
 */
export class Elicitations {
  private readonly pending = new Map<string, Entry>();
  private readonly settled = new Map<string, ElicitationOutcome>();

  constructor(
    private readonly now: () => Date,
    private readonly onSettled: (info: PendingElicitation, outcome: ElicitationOutcome) => void = () => undefined,
  ) {}

  /** `signals`: any one aborting withdraws the question (the server's request, the call that asked). */
  ask(server: string, taskId: string | null, params: ElicitRequest['params'], signals: readonly (AbortSignal | undefined)[]): { info: PendingElicitation; answer: Promise<ElicitResult> } {
    const requestedSchema = ('requestedSchema' in params && isPlainObject(params.requestedSchema) ? params.requestedSchema : { type: 'object', properties: {} }) as Json;
    const info: PendingElicitation = { id: newId('elicit'), server, taskId, message: params.message, requestedSchema, createdAt: this.now().toISOString() };
    let validate: ValidateFunction;
    try {
      validate = ajv.compile(requestedSchema as object);
    } catch {
      // A schema Ajv cannot take is still shown; the answer must then at least be an object.
      validate = ajv.compile({ type: 'object' });
    }
    const answer = new Promise<ElicitResult>((resolve) => {
      const live = signals.filter((s): s is AbortSignal => s !== undefined);
      const withdraw = (): void => this.settle(info.id, 'withdrawn', { action: 'cancel' });
      const unlink = (): void => live.forEach((s) => s.removeEventListener('abort', withdraw));
      this.pending.set(info.id, { info, validate, resolve, unlink });
      for (const s of live) s.addEventListener('abort', withdraw, { once: true });
      if (live.some((s) => s.aborted)) withdraw();
    });
    return { info, answer };
  }

  list(taskId?: string): PendingElicitation[] {
    return [...this.pending.values()].map((p) => p.info).filter((i) => taskId === undefined || i.taskId === taskId);
  }

  /**
   * A person's answer. `not_found` for an unknown id, `invalid_transition` for one already answered
   * or withdrawn, `invalid_input` for a bad action or content that does not match the requested
   * schema; none of them change anything.
   */
  answer(id: string, answer: unknown): PendingElicitation {
    const entry = this.pending.get(id);
    if (!entry) {
      const outcome = this.settled.get(id);
      if (outcome) {
        throw new CoworkError('invalid_transition', `elicitation ${JSON.stringify(id)} is no longer waiting: it was ${outcome === 'withdrawn' ? 'withdrawn (its tool call ended)' : `answered (${outcome})`}`, { elicitationId: id, outcome });
      }
      throw new CoworkError('not_found', `no elicitation ${JSON.stringify(id)} is waiting for an answer`, { elicitationId: id });
    }
    const body = isPlainObject(answer) ? answer : {};
    if (typeof body.action !== 'string' || !ACTIONS.has(body.action)) throw new CoworkError('invalid_input', 'an answer needs "action": "accept", "decline" or "cancel"', { elicitationId: id });
    if (body.content !== undefined && !isPlainObject(body.content)) throw new CoworkError('invalid_input', '"content" must be an object of the fields asked for', { elicitationId: id });
    if (body.action !== 'accept') {
      if (body.content !== undefined) throw new CoworkError('invalid_input', `"content" goes only with "accept", not "${body.action}"`, { elicitationId: id });
      this.settle(id, body.action as ElicitationOutcome, { action: body.action as 'decline' | 'cancel' });
      return entry.info;
    }
    const content = (body.content ?? {}) as Record<string, unknown>;
    const problems = [...primitiveProblems(content, entry.info.requestedSchema), ...(entry.validate(content) ? [] : schemaProblems(entry.validate))];
    if (problems.length > 0) {
      throw new CoworkError('invalid_input', `the answer does not match what the server asked for: ${problems.join('; ')}`, { elicitationId: id, problems });
    }
    this.settle(id, 'accept', { action: 'accept', content: content as ElicitResult['content'] });
    return entry.info;
  }

  /** Withdraws everything still waiting (the host is closing). */
  cancelAll(): void {
    for (const id of [...this.pending.keys()]) this.settle(id, 'withdrawn', { action: 'cancel' });
  }

  private settle(id: string, outcome: ElicitationOutcome, result: ElicitResult): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.pending.delete(id);
    entry.unlink();
    this.settled.set(id, outcome);
    if (this.settled.size > SETTLED_KEPT) this.settled.delete(this.settled.keys().next().value!);
    entry.resolve(result);
    this.onSettled(entry.info, outcome);
  }
}

/** The spec allows only primitive values (and arrays of strings, for multi-select) in an elicitation's answer. */
function primitiveProblems(content: Record<string, unknown>, schema: Json): string[] {
  const problems: string[] = [];
  const properties = isPlainObject(schema) && isPlainObject(schema.properties) ? schema.properties : undefined;
  for (const [key, value] of Object.entries(content)) {
    if (properties && !(key in properties)) {
      problems.push(`/${key} was not asked for`);
      continue;
    }
    const ok = ['string', 'number', 'boolean'].includes(typeof value) || (Array.isArray(value) && value.every((v) => typeof v === 'string'));
    if (!ok) problems.push(`/${key} must be a string, number, boolean or list of strings`);
  }
  return problems;
}
