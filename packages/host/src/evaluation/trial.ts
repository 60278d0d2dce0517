import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { AgentRuntime } from '../agents/runtime';
import { CoworkError, isCoworkError } from '../errors';
import { Host, type HostOptions } from '../host';
import type { ModelProvider } from '../models/types';
import type { SuiteCheckContext, SuiteDefinition, SuiteTask, TextModel, TrialEntry, TrialRun } from '../plugins/suite';
import type { ResourceRecord } from '../store/records';
import { asJson } from '../util/json';
import { killJobProcesses } from '../util/kill-jobs';
import { RUN_RECORD_FORMAT, type ItemResult, type RunRecord, type TaskBudget, type TrialResult } from './results-format';
import { readScript, ScriptProvider, ScriptRecorder, type SessionScript } from './script';
import { requestWithIds } from './task-file';

/** Who answers for the model in a trial: a session script, or a real model (optionally recorded). */
export type TrialModel =
  | { readonly kind: 'script'; readonly dir: string }
  | { readonly kind: 'model'; readonly provider: ModelProvider; readonly text?: TextModel; readonly record?: boolean };

export interface TrialOptions {
  readonly suite: SuiteDefinition;
  readonly task: SuiteTask;
  readonly trial: number;
  /** The plugins of the trial's host: the same a `cowork run` would load. */
  readonly host: Pick<HostOptions, 'plugins' | 'pluginModules' | 'resolveFrom'>;
  readonly model: TrialModel;
  /** The trial's workspace; made empty first (a trial interrupted before leaves its workspace behind). */
  readonly workspaceDir: string;
  /** Limits when the task sets none. */
  readonly defaults: TaskBudget;
}

export interface TrialOutcome {
  readonly result: Omit<TrialResult, 'record'>;
  readonly record: RunRecord;
  /** With a recorded model: the session as a script that replays it. */
  readonly script?: SessionScript;
}

const OPERATOR = 'human:bench';

/**
 * One trial of one task, as `cowork run` would run it, in a fresh workspace: the task's starting
 * resources are made, Main gets the request (and the suite's instructions), and the runtime runs
 * until Main finishes, waits for the person (a suite with a user answers, turn by turn), or the
 * budget ends it. Then every rubric check runs on what the trial left. Whatever goes wrong
 * (the host, the model past its retries, a script that does not fit, a check that throws) makes an
 * `invalid` trial with the reason; it never throws, so a run goes on to the next trial.
 */
export async function runTrial(o: TrialOptions): Promise<TrialOutcome> {
  const started = new Date();
  const budget = budgetOf(o.task, o.defaults);
  rmSync(o.workspaceDir, { recursive: true, force: true });
  mkdirSync(o.workspaceDir, { recursive: true });
  let host: Host | undefined;
  let runtime: AgentRuntime | undefined;
  const ids: Record<string, string> = {};
  let taskId = '';
  let outcome = 'error';
  let summary: string | null = null;
  let invalid: string | undefined;
  let setupSeconds = 0;
  let seconds = 0;
  let scoringSeconds = 0;
  let items: ItemResult[] = [];
  let request = o.task.request;
  let run: TrialRun = { request, outcome, summary, entries: [], tokens: { input: 0, output: 0 } };
  let resources: Record<string, ResourceRecord> = {};
  let recorder: ScriptRecorder | undefined;
  let turns = 0;
  const userMessages: string[] = [];
  const replies: string[] = [];
  try {
    host = await Host.open({ workspaceDir: o.workspaceDir, ...o.host, onBackgroundError: () => undefined });
    const open = host;
    for (const resource of o.task.resources) {
      const created = resource.file
        ? await open.imports.importFile({ kind: resource.kind, fileName: basename(resource.file), data: readFileSync(resolve(o.suite.dir, resource.file)), operator: OPERATOR })
        : await open.resources.create({ kind: resource.kind, content: resource.content, operator: OPERATOR });
      ids[resource.name] = created.id;
      let revision = created.revision;
      for (const op of resource.ops ?? []) revision = (await open.resources.commit(created.id, { baseRevision: revision, op, operator: OPERATOR })).revision;
    }
    request = requestWithIds(o.task.request, ids);
    const script = o.model.kind === 'script' ? readScript(join(o.model.dir, `${o.task.id}.json`), { suite: o.suite.name, task: o.task.id }) : undefined;
    const agentId = (name: string): string | undefined =>
      Object.values(open.coordinator.current.assignments).find((a) => a.taskId === taskId && (a.agentId === name || a.agentId.startsWith(`${name}-`)))?.agentId;
    let provider: ModelProvider;
    if (o.model.kind === 'script') {
      provider = new ScriptProvider(script!, join(o.model.dir, `${o.task.id}.json`), { taskId: () => taskId, resourceId: (name) => ids[name], agentId });
    } else if (o.model.record) {
      provider = recorder = new ScriptRecorder(o.model.provider, () => placeholders(taskId, ids, open));
    } else {
      provider = o.model.provider;
    }
    const stop = new AbortController();
    runtime = new AgentRuntime({
      host: open,
      provider,
      mainInstructions: o.suite.instructions,
      taskMaxTokens: budget.tokens ?? undefined,
      onEvent: (event) => {
        if (event.type !== 'turn' || event.agentId !== 'main') return;
        turns = event.turn;
        if (budget.turns !== null && event.turn > budget.turns) stop.abort('turn_limit');
      },
    });
    taskId = await runtime.startTask(request, budget.tokens === null ? {} : { maxTokens: budget.tokens });
    setupSeconds = (Date.now() - started.getTime()) / 1000;
    const timer = budget.seconds === null ? undefined : setTimeout(() => stop.abort('timeout'), budget.seconds * 1000);
    const runStarted = Date.now();
    try {
      for (;;) {
        const result = await runtime.runTask(taskId, stop.signal);
        if (result.status === 'done') {
          outcome = 'done';
          summary = result.summary;
          break;
        }
        if (result.status === 'aborted') {
          outcome = typeof stop.signal.reason === 'string' ? stop.signal.reason : 'aborted';
          break;
        }
        outcome = `waiting: ${result.reason}`;
        if (result.reason === 'model_failed') {
          invalid = `the model failed: ${result.error ?? 'unknown error'}`;
          break;
        }
        if (result.reason !== 'awaiting_user') break;
        replies.push(result.reply ?? '');
        const next = await userTurn(o, script, userMessages, replies, stop.signal);
        if (next === null) break;
        userMessages.push(next);
        await runtime.postUserMessage(taskId, next);
      }
    } finally {
      clearTimeout(timer);
      seconds = (Date.now() - runStarted) / 1000;
    }
    if (outcome !== 'done') await runtime.cancelTask(taskId).catch(() => undefined);
    run = await trialRun(open, taskId, request, outcome, summary);
    const scoring = Date.now();
    resources = await finalResources(open, ids);
    const scored = await scoreRubric(o, open, resources, run);
    items = scored.items;
    invalid ??= scored.invalid;
    scoringSeconds = (Date.now() - scoring) / 1000;
  } catch (error) {
    invalid = isCoworkError(error) ? `${error.code}: ${error.message}` : String((error as Error)?.stack ?? error);
  } finally {
    await runtime?.close().catch(() => undefined);
    if (host) await closeAndStopJobs(host);
    rmSync(o.workspaceDir, { recursive: true, force: true, maxRetries: 10 });
  }
  const maxScore = o.task.rubric.reduce((sum, item) => sum + item.points, 0);
  const score = invalid ? 0 : items.reduce((sum, item) => sum + item.earned, 0);
  const passed = !invalid && items.length === o.task.rubric.length && items.every((item) => item.pass);
  const status = invalid ? 'invalid' : 'scored';
  const record: RunRecord = {
    format: RUN_RECORD_FORMAT,
    suite: o.suite.name,
    task: o.task.id,
    trial: o.trial,
    ...run,
    budget,
    startedAt: started.toISOString(),
    endedAt: new Date().toISOString(),
    resources: Object.fromEntries(Object.entries(resources).map(([name, r]) => [name, { id: r.id, kind: r.kind, revision: r.revision, content: r.content }])),
    status,
    ...(invalid ? { reason: invalid } : {}),
    items,
  };
  return {
    result: {
      task: o.task.id,
      split: o.task.split,
      trial: o.trial,
      status,
      ...(invalid ? { reason: invalid } : {}),
      outcome,
      score,
      maxScore,
      passed,
      items,
      tokens: run.tokens,
      turns,
      seconds,
      setupSeconds,
      scoringSeconds,
      budget,
    },
    record,
    script: recorder?.script(o.suite.name, o.task.id, userMessages),
  };
}

function budgetOf(task: SuiteTask, defaults: TaskBudget): TaskBudget {
  return { tokens: task.budget?.tokens ?? defaults.tokens, turns: task.budget?.turns ?? defaults.turns, seconds: task.budget?.seconds ?? defaults.seconds };
}

/** The person's next message: the script's, the suite's simulated user's, or none. */
async function userTurn(o: TrialOptions, script: SessionScript | undefined, said: readonly string[], replies: readonly string[], signal: AbortSignal): Promise<string | null> {
  if (script) return script.user?.[said.length] ?? null;
  if (!o.suite.user) return null;
  return o.suite.user({ task: o.task, replies, said: [o.task.request, ...said], ...(o.model.kind === 'model' && o.model.text ? { model: o.model.text } : {}), signal });
}

/** Ids of this trial that a recorded script names by placeholder. */
function placeholders(taskId: string, ids: Readonly<Record<string, string>>, host: Host): Record<string, string> {
  const out: Record<string, string> = {};
  if (taskId) out['{{task}}'] = taskId;
  for (const [name, id] of Object.entries(ids)) out[`{{resource:${name}}}`] = id;
  for (const a of Object.values(host.coordinator.current.assignments)) {
    if (a.taskId === taskId) out[`{{agent:${a.agentId.replace(/-[0-9a-f]{6}$/, '')}}}`] = a.agentId;
  }
  return out;
}

/** What the trial did, from the durable records: every agent's conversation, tokens, how it ended. */
async function trialRun(host: Host, taskId: string, request: string, outcome: string, summary: string | null): Promise<TrialRun> {
  await host.coordinator.refresh();
  const state = host.coordinator.current;
  const agents = ['main', ...(state.tasks[taskId]?.assignmentIds ?? []).map((id) => state.assignments[id]!.agentId)];
  return host.store.read(async (tx) => {
    const entries: TrialEntry[] = [];
    for (const agentId of agents) {
      for (const record of await tx.conversation.list(taskId, agentId)) entries.push({ agentId, turn: record.turn, message: record.message, at: record.createdAt });
    }
    const totals = await tx.modelCalls.totals(taskId);
    return { request, outcome, summary, entries, tokens: { input: totals.inputTokens, output: totals.outputTokens } };
  });
}

async function finalResources(host: Host, ids: Readonly<Record<string, string>>): Promise<Record<string, ResourceRecord>> {
  const out: Record<string, ResourceRecord> = {};
  for (const [name, id] of Object.entries(ids)) out[name] = await host.resources.get(id);
  return out;
}

/** Runs every rubric check; one that throws makes the trial invalid, with its reason. */
async function scoreRubric(o: TrialOptions, host: Host, resources: Readonly<Record<string, ResourceRecord>>, run: TrialRun): Promise<{ items: ItemResult[]; invalid?: string }> {
  const items: ItemResult[] = [];
  const signal = new AbortController().signal;
  for (const item of o.task.rubric) {
    const workDir = join(o.workspaceDir, 'checks', item.id);
    mkdirSync(workDir, { recursive: true });
    const context: SuiteCheckContext = {
      task: o.task,
      resources,
      api: host.resources,
      exportResource: async (resourceId, format) => (await host.exports.export(resourceId, format, { signal })).data,
      runTool: async (name, input) => {
        const registered = host.registry.tool(name);
        if (!registered) throw new CoworkError('unknown_tool', `no tool ${name}`, { tool: name });
        const result = await registered.tool.handler(input as never, { operator: OPERATOR, signal, host: { workspaceDir: host.workspaceDir, resources: host.resources } });
        return { content: asJson(result.content as object), ...(result.isError ? { isError: true } : {}) };
      },
      run,
      workDir,
      ...(o.model.kind === 'model' && o.model.text ? { judge: o.model.text } : {}),
      signal,
    };
    try {
      const verdict = await o.suite.checks[item.check]!(context, item.args);
      items.push({ id: item.id, description: item.description, points: item.points, earned: verdict.pass ? item.points : 0, pass: verdict.pass, detail: verdict.detail, ...(verdict.judged === false ? { judged: false as const } : {}) });
    } catch (error) {
      return { items, invalid: `check ${item.check} of item ${item.id} failed: ${isCoworkError(error) ? `${error.code}: ${error.message}` : (error as Error)?.message ?? String(error)}` };
    } finally {
      rmSync(workDir, { recursive: true, force: true });
    }
  }
  return { items };
}

/**
 * Closes the trial's host, then kills the jobs it left running (an application such as Blender
 * outlives a host on purpose) and waits until they and their supervisors are gone, so nothing of
 * the trial runs on. The host closes first: while it is open, its poll restarts a scene's Blender
 * that stops.
 */
async function closeAndStopJobs(host: Host): Promise<void> {
  const running = await host.jobs.list({ status: 'running' }).catch(() => []);
  await host.close().catch(() => undefined);
  await killJobProcesses(running, 10_000);
}
