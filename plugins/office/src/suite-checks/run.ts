/**
 * Checks on what the agents did, from the trial's run record: Main finished, looked at its work
 * with the plugin's tools, and took a subagent's proposed draft.
 */
import { runCalls, type Json, type RunCall, type SuiteCheck, type TrialRun } from '@cowork/host';
import { argsOf, resourceOf, verdict } from './common';

function mainCalls(run: TrialRun, name?: string): RunCall[] {
  return runCalls(run).filter((c) => c.agentId === 'main' && (name === undefined || c.name === name));
}

function field(value: Json | undefined, key: string): Json | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? value[key] : undefined;
}

const finished: SuiteCheck = (context) => verdict(context.run.outcome === 'done', `the run ended: ${context.run.outcome}`);

/** Main ran `name` (an office tool) successfully on the resource, at its final revision when `final`. */
const toolUsed: SuiteCheck = (context, args) => {
  const { name, resource, final = false } = argsOf<{ name: string; resource: string; final?: boolean }>(args);
  const record = resourceOf(context, resource);
  const calls = mainCalls(context.run, name).filter((c) => !c.failed && field(c.input, 'resourceId') === record.id);
  const revisions = calls.map((c) => field(c.result, 'revision'));
  const ok = final ? revisions.includes(record.revision) : calls.length > 0;
  const ran = revisions.length > 0 ? `Main ran ${name} on ${resource} at revision ${revisions.join(', ')}` : `Main never ran ${name} on ${resource}`;
  return verdict(ok, final ? `${ran}; its final revision is ${record.revision}` : ran);
};

/** Main accepted a candidate a subagent proposed. */
const candidateAccepted: SuiteCheck = (context) => {
  const proposed = runCalls(context.run).filter((c) => c.agentId !== 'main' && c.name === 'propose_draft' && !c.failed).map((c) => field(c.result, 'candidateId'));
  const accepted = mainCalls(context.run, 'accept_candidate').filter((c) => !c.failed).map((c) => field(c.input, 'candidateId'));
  const both = proposed.filter((id) => accepted.includes(id));
  return verdict(both.length > 0, both.length > 0 ? "Main accepted the subagent's candidate" : `proposed ${proposed.length}, accepted ${accepted.length}, none of them the same`);
};

export const runChecks = {
  finished,
  tool_used: toolUsed,
  candidate_accepted: candidateAccepted,
} satisfies Record<string, SuiteCheck>;
