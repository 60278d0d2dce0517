import type { RawAction, RawTask } from './data';
import { callTool } from './domain';
import type { RetailDb } from './model';

export interface GoldStep {
  readonly action: RawAction;
  readonly output: string;
  readonly error: boolean;
  /** Whether the call changed the database (a write that succeeded). */
  readonly wrote: boolean;
}

/**
 * The reference evaluator's gold environment: the task's gold actions called one after another
 * through the tools on the starting database. As in the reference, an action that fails is kept
 * (its output is the error) and the next one runs.
 */
export function replayGold(db: RetailDb, actions: readonly RawAction[]): { db: RetailDb; steps: GoldStep[] } {
  const steps: GoldStep[] = [];
  let current = db;
  for (const action of actions) {
    if (action.requestor !== undefined && action.requestor !== 'assistant') {
      // Retail has no user tools: the reference's environment finds no such tool for the user.
      steps.push({ action, output: `Error: Tool '${action.name}' not found.`, error: true, wrote: false });
      continue;
    }
    const outcome = callTool(current, action.name, action.arguments ?? {});
    steps.push({ action, output: outcome.output, error: outcome.error, wrote: outcome.op !== undefined });
    current = outcome.db;
  }
  return { db: current, steps };
}

export function goldActions(task: RawTask): RawAction[] | null {
  return task.evaluation_criteria?.actions ?? null;
}
