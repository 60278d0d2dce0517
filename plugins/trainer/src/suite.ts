import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { defineSuite, runCalls, writeJsonAtomic, type CheckVerdict, type Json, type RubricItem, type SuiteCheckContext, type SuiteTask } from '@cowork/host';
import { DATA_RESOURCE, FAMILIES, generate, type Family, type FamilyTask } from './family/families';

/** Instances per family in the suite: training (dev, seed 1) and held-out (seed 2). */
export const DEV_PER_FAMILY = 300;
export const HELDOUT_PER_FAMILY = 30;

export const FAMILY_SUITE = 'trainer-families';

/** The family of a suite task, from its id (`read-value-heldout-2-7`). */
export function familyOfTask(taskId: string): Family | undefined {
  return FAMILIES.find((f) => taskId.startsWith(`${f.replace(/_/g, '-')}-`));
}

/** Every task of the suite, generated (the same on every call). */
export function familyInstances(): FamilyTask[] {
  return FAMILIES.flatMap((family) => [...generate(family, 'train', DEV_PER_FAMILY, 1), ...generate(family, 'heldout', HELDOUT_PER_FAMILY, 2)]);
}

function item(id: string, description: string, points: number, check: string, args: Json): RubricItem {
  return { id, description, points, check, args };
}

/** A generated instance as a benchmark task: its resource, request and rubric. */
export function familySuiteTask(task: FamilyTask): SuiteTask {
  const resources = task.resource ? [{ name: DATA_RESOURCE, kind: 'text', content: { text: task.resource.text }, ...(task.resource.ops.length > 0 ? { ops: task.resource.ops } : {}) }] : [];
  const rubric =
    task.family === 'read_value'
      ? [item('read', 'read the settings resource', 1, 'read_it', { resource: DATA_RESOURCE }), item('answer', `the summary gives the value ${task.answer}`, 2, 'summary_has', { text: task.answer })]
      : task.family === 'commit_line'
        ? [item('committed', `the line "${task.line}" was appended at revision ${task.revision}`, 1, 'appended', { resource: DATA_RESOURCE, line: task.line!, revision: task.revision + 1 }), item('answer', `the summary gives ${task.answer}`, 2, 'summary_has', { text: task.answer })]
        : [item('created', `a new text resource holds "${task.line}"`, 1, 'created', { line: task.line! }), item('answer', 'the summary gives the new resource\'s id', 2, 'summary_has_created_id', { line: task.line! })];
  return { id: task.id, split: task.split === 'train' ? 'dev' : 'heldout', request: task.taskRequest, resources, budget: { turns: 4, seconds: 120 }, rubric };
}

/** Writes each instance's reference solution as a session script `<dir>/<task>.json`, for `--replay`. */
export function writeFamilyScripts(dir: string, tasks: readonly FamilyTask[]): void {
  mkdirSync(dir, { recursive: true });
  for (const task of tasks) writeJsonAtomic(join(dir, `${task.id}.json`), { format: 'cowork-bench-script/1', suite: FAMILY_SUITE, task: task.id, agents: { main: task.script as unknown as Json } });
}

const verdict = (pass: boolean, yes: string, no: string): CheckVerdict => ({ pass, detail: pass ? yes : no });

/** The text resources the trial made (not the task's own), holding exactly this line. */
async function createdHolding(context: SuiteCheckContext, line: string): Promise<string[]> {
  const own = new Set(Object.values(context.resources).map((r) => r.id));
  const texts = await context.api.list({ kind: 'text' });
  return texts.filter((r) => !own.has(r.id) && (r.content as { text?: string }).text === `${line}\n`).map((r) => r.id);
}

/**
 * The task families as a benchmark suite: the held-out split is what a trained round is scored
 * on (`cowork bench run trainer-families --split heldout` against a served checkpoint), and the dev
 * split's reference scripts, replayed through the host, are the teacher trajectories rounds train on.
 */
export const familySuite = defineSuite({
  name: FAMILY_SUITE,
  description: 'The trainer\'s task families on the host\'s own tools (read_value, commit_line, create_note): one call, its result, and finish with a summary carrying values from it. Dev instances are training data; held-out ones draw every value from disjoint ranges.',
  dir: join(__dirname, '..'),
  tasks: async () => familyInstances().map(familySuiteTask),
  checks: {
    read_it: (context, args) => {
      const { resource } = args as { resource: string };
      const id = context.resources[resource]!.id;
      const read = runCalls(context.run).some((c) => c.name === 'read_resource' && !c.failed && (c.input as { resourceId?: string } | undefined)?.resourceId === id);
      return verdict(read, `read ${resource}`, `no read_resource of ${resource}`);
    },
    summary_has: (context, args) => {
      const { text } = args as { text: string };
      const summary = context.run.summary;
      return verdict(summary !== null && summary.includes(text), `the summary gives ${text}`, summary === null ? 'Main did not finish' : `the summary does not give ${text}: ${JSON.stringify(summary.slice(0, 120))}`);
    },
    appended: (context, args) => {
      const { resource, line, revision } = args as { resource: string; line: string; revision: number };
      const record = context.resources[resource]!;
      const text = (record.content as { text?: string }).text ?? '';
      return verdict(record.revision === revision && text.endsWith(`${line}\n`), `${resource} ends with the line at revision ${revision}`, `${resource} is at revision ${record.revision} and ends ${JSON.stringify(text.slice(-40))}`);
    },
    created: async (context, args) => {
      const { line } = args as { line: string };
      const made = await createdHolding(context, line);
      return verdict(made.length === 1, 'one new text resource holds the line', `${made.length} new text resources hold the line`);
    },
    summary_has_created_id: async (context, args) => {
      const { line } = args as { line: string };
      const [made] = await createdHolding(context, line);
      const summary = context.run.summary;
      if (made === undefined) return verdict(false, '', 'no new text resource holds the line');
      // Ids are random per trial: keep them out of the detail, which replays compare.
      return verdict(summary !== null && summary.includes(made), 'the summary gives the new id', summary === null ? 'Main did not finish' : 'the summary does not give the new id');
    },
  },
});
