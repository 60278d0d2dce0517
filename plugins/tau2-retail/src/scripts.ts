import type { Json } from '@cowork/host';
import type { RawAction, RawTask } from './data';
import { isWriteTool } from './domain';
import { SUITE_NAME } from './suite';

/**
 * Reference solutions for replay, made from the data rather than kept in the project: for each
 * task a session script (`cowork-bench-script/1`) in which Main greets the customer, makes the
 * gold actions as tool calls (one a turn, asking the customer to confirm each write first, as the
 * policy requires), tells the customer it is done (saying each `communicate_info` value), and
 * finishes. The customer's turns are the script's `user` messages: the scenario, the
 * confirmations, and a goodbye.
 */
export interface ScriptTurn {
  readonly content?: string | null;
  readonly toolCalls?: readonly { readonly name: string; readonly arguments: Json }[];
}

export interface SessionScript {
  readonly format: 'cowork-bench-script/1';
  readonly suite: string;
  readonly task: string;
  readonly agents: { readonly main: readonly ScriptTurn[] };
  readonly user: readonly string[];
}

export interface ScriptOptions {
  /** Leave out the gold action at this index (a flawed solution). */
  readonly drop?: number;
}

/** The customer's first real message in a script: who they are and why they call. */
export function scenarioOpening(task: RawTask): string {
  const i = task.user_scenario.instructions;
  if (typeof i === 'string') return i;
  return [i.known_info, i.reason_for_call].filter((part): part is string => Boolean(part)).join(' ');
}

export function referenceScript(task: RawTask, options: ScriptOptions = {}): SessionScript {
  const actions: RawAction[] = (task.evaluation_criteria?.actions ?? []).filter((_, i) => i !== options.drop);
  const main: ScriptTurn[] = [{ content: 'Hello! I can help with that. Please tell me what you need, and how I can find your account.' }];
  const user: string[] = [scenarioOpening(task)];
  for (const action of actions) {
    if (isWriteTool(action.name)) {
      main.push({ content: `Before I go ahead: ${action.name.replace(/_/g, ' ')} with ${JSON.stringify(action.arguments)}. Do you confirm (yes/no)?` });
      user.push('Yes, I confirm.');
    }
    main.push({ toolCalls: [{ name: action.name, arguments: action.arguments as Json }] });
  }
  const info = task.evaluation_criteria?.communicate_info ?? [];
  main.push({ content: `Everything is taken care of.${info.length > 0 ? ` For your information: ${info.join('; ')}.` : ''} Is there anything else I can help you with?` });
  user.push("No, that's all. Thank you!");
  const writes = actions.filter((a) => isWriteTool(a.name)).map((a) => a.name);
  main.push({ toolCalls: [{ name: 'finish', arguments: { summary: writes.length > 0 ? `Helped the customer: ${writes.join(', ')}.` : 'Answered the customer; nothing needed changing.' } }] });
  return { format: 'cowork-bench-script/1', suite: SUITE_NAME, task: task.id, agents: { main }, user };
}
