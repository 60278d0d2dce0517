import { join } from 'node:path';
import { defineSuite } from '../plugins/define-plugin';
import type { CheckVerdict, SuiteCheck } from '../plugins/suite';
import { isPlainObject, type Json } from '../util/json';
import { runCalls, type RunCall } from './run-calls';

/**
 * The host's own suite: tasks on `text` resources that a model can only solve by using the runtime
 * itself (delegation sync and async, drafts proposed and accepted, the Inbox, the completion gate
 * held by a running job, monitors and parking, memory, rebasing after a conflict). Its checks read the final resources and
 * the run record; none needs an application.
 */
export const runtimeSuite = defineSuite({
  name: 'runtime',
  description: "The host's runtime: delegation, drafts and candidates, the Inbox, the completion gate, monitors, memory and conflicts, on text resources.",
  dir: join(__dirname, '..', '..', 'suites', 'runtime'),
  checks: {
    text_is: (context, args) => {
      const { resource, text } = args as { resource: string; text: string };
      const actual = textOf(context.resources[resource]?.content);
      return verdict(actual === text, actual === text ? `${resource} reads as expected` : `${resource} is ${JSON.stringify(actual)}, not ${JSON.stringify(text)}`);
    },
    text_contains: (context, args) => {
      const { resource, texts } = args as { resource: string; texts: string[] };
      const actual = textOf(context.resources[resource]?.content) ?? '';
      const missing = texts.filter((t) => !actual.includes(t));
      return verdict(missing.length === 0, missing.length === 0 ? `${resource} has every expected part` : `${resource} lacks ${missing.map((m) => JSON.stringify(m)).join(', ')}`);
    },
    finished: (context) => verdict(context.run.outcome === 'done', `the run ended: ${context.run.outcome}`),
    turns_at_most: (context, args) => {
      const { max } = args as { max: number };
      const turns = new Set(context.run.entries.filter((e) => e.agentId === 'main' && (e.message as { role?: string }).role === 'assistant').map((e) => e.turn)).size;
      return verdict(turns <= max, `Main took ${turns} turns (at most ${max})`);
    },
    delegated: (context, args) => {
      const { mode, count = 1 } = args as { mode: 'sync' | 'async'; count?: number };
      const made = mainCalls(context.run, 'delegate').filter((c) => !c.failed && field(c.input, 'mode') === mode).length;
      return verdict(made >= count, `Main delegated ${made} ${mode} assignment(s) (${count} expected)`);
    },
    candidate_accepted: (context) => {
      const proposed = runCalls(context.run).filter((c) => c.agentId !== 'main' && c.name === 'propose_draft' && !c.failed).map((c) => field(c.result, 'candidateId'));
      const accepted = mainCalls(context.run, 'accept_candidate').filter((c) => !c.failed).map((c) => field(c.input, 'candidateId'));
      const both = proposed.filter((id) => accepted.includes(id));
      return verdict(both.length > 0, both.length > 0 ? "Main accepted the subagent's candidate" : `proposed ${proposed.length}, accepted ${accepted.length}, none of them the same`);
    },
    gate_refused: (context) => {
      const finishes = mainCalls(context.run, 'finish');
      const refused = finishes.findIndex((c) => field(c.result, 'reason') === 'completion_gate');
      return verdict(refused >= 0 && refused < finishes.length - 1, refused >= 0 ? 'finish was refused while work was open, then accepted' : 'finish was never refused by the completion gate');
    },
    monitor_used: (context, args) => {
      const { kind } = args as { kind: string };
      const calls = mainCalls(context.run);
      const created = calls.find((c) => c.name === 'create_monitor' && !c.failed && field(c.input, 'kind') === kind);
      const id = created && field(created.result, 'id');
      const parked = calls.some((c) => c.name === 'sleep_until' && field(c.input, 'monitorId') === id && field(c.result, 'parked') === true);
      const cancelled = calls.some((c) => c.name === 'cancel_monitor' && !c.failed && field(c.input, 'monitorId') === id);
      return verdict(Boolean(id) && parked && cancelled, `${kind} monitor created: ${Boolean(id)}; parked on it: ${parked}; cancelled: ${cancelled}`);
    },
    memory_updated: (context, args) => {
      const { contains } = args as { contains: string };
      const updated = mainCalls(context.run, 'update_memory').some((c) => !c.failed && String(field(c.input, 'content') ?? '').includes(contains));
      return verdict(updated, updated ? `memory.md was written with ${JSON.stringify(contains)}` : `no update_memory with ${JSON.stringify(contains)}`);
    },
    tool_succeeded: (context, args) => {
      const { name } = args as { name: string };
      const ok = mainCalls(context.run, name).some((c) => !c.failed);
      return verdict(ok, ok ? `${name} succeeded` : `no successful ${name}`);
    },
    conflict_recovered: (context) => {
      const commits = mainCalls(context.run, 'commit_resource');
      const conflict = commits.findIndex((c) => isPlainObject(c.result) && isPlainObject(c.result.error) && c.result.error.code === 'revision_conflict');
      const after = conflict >= 0 && commits.slice(conflict + 1).some((c) => !c.failed);
      return verdict(after, conflict < 0 ? 'no commit met a revision_conflict' : after ? 'a commit after the conflict landed' : 'nothing was committed after the conflict');
    },
  } satisfies Record<string, SuiteCheck>,
});

function verdict(pass: boolean, detail: string): CheckVerdict {
  return { pass, detail };
}

function textOf(content: Json | undefined): string | undefined {
  return isPlainObject(content) && typeof content.text === 'string' ? content.text : undefined;
}

function mainCalls(run: Parameters<typeof runCalls>[0], name?: string): RunCall[] {
  return runCalls(run).filter((c) => c.agentId === 'main' && (name === undefined || c.name === name));
}

function field(value: Json | undefined, key: string): Json | undefined {
  return isPlainObject(value) ? value[key] : undefined;
}
