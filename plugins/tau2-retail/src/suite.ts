import { CoworkError, defineSuite, type CheckVerdict, type Json, type RubricItem, type SuiteCheckContext, type SuiteTask, type TrialRun } from '@cowork/host';
import { defaultDataDir, loadData, pluginRoot, type RawTask, type RetailData } from './data';
import { goldActions, replayGold } from './gold';
import { judgeAssertions, agentMessages, type Judgment } from './judge';
import { RETAIL_DB_KIND } from './kind';
import type { RetailDb } from './model';
import { canonicalJson } from './py';
import { OPENING, simulatedUser } from './user';

export const SUITE_NAME = 'tau2-retail';

/**
 * Main's instructions: the policy, framed as τ²-bench's agent is told it (its `<instructions>`
 * and `<policy>`), with one line on how this host carries the conversation.
 */
export function agentInstructions(policy: string): string {
  return `<instructions>
You are a customer service agent that helps the user according to the <policy> provided below.
In each turn you can either:
- Send a message to the user.
- Make a tool call.
You cannot do both at the same time.

Try to be helpful and always follow the policy. Always make sure you generate valid JSON only.

The person you talk with is the customer: a reply without a tool call is your message to them, and their answer comes as the next message. When the conversation is over, call \`finish\`.
</instructions>
<policy>
${policy}
</policy>`;
}

/** What the tasks' budgets are: τ²-bench limits steps, not tokens, and a conversation re-reads long tool outputs. */
export const TASK_BUDGET = { tokens: 2_000_000, turns: 100 } as const;

/** Which run outcomes are a conversation that ended as τ²-bench's do (the agent or the user stopped); others score 0. */
function endedNormally(run: TrialRun): boolean {
  return run.outcome === 'done' || run.outcome === 'waiting: awaiting_user';
}

const SUPPORTED_BASES = new Set(['DB', 'NL_ASSERTION', 'COMMUNICATE']);

/** The suite's view of a τ²-bench task: the database resource, the customer's opening, and the rubric its reward basis names. */
export function suiteTask(data: RetailData, raw: RawTask): SuiteTask {
  const where = `τ²-bench retail task ${raw.id} (${data.dir}/tasks.json)`;
  const train = data.split.train!.includes(raw.id);
  const test = data.split.test!.includes(raw.id);
  if (train === test) throw new CoworkError('invalid_input', `${where} is in ${train ? 'both' : 'neither of'} the train and test lists of split_tasks.json`, { task: raw.id });
  if (raw.initial_state !== null && raw.initial_state !== undefined) {
    throw new CoworkError('invalid_input', `${where} has an initial_state; this suite runs tasks that start from db.json as it is`, { task: raw.id });
  }
  const criteria = raw.evaluation_criteria ?? {};
  const basis = criteria.reward_basis ?? ['DB'];
  const unsupported = basis.filter((b) => !SUPPORTED_BASES.has(b));
  if (unsupported.length > 0 || !basis.includes('DB')) {
    throw new CoworkError('invalid_input', `${where}: reward basis ${JSON.stringify(basis)}; this suite scores DB, NL_ASSERTION and COMMUNICATE, and DB must be among them`, { task: raw.id });
  }
  const rubric: RubricItem[] = [
    { id: 'db', description: 'The final database equals the one the gold actions produce (τ²-bench DB reward).', points: 1, check: 'db_matches_gold' },
  ];
  if (basis.includes('NL_ASSERTION')) {
    (criteria.nl_assertions ?? []).forEach((assertion, index) =>
      rubric.push({ id: `nl_${index}`, description: assertion, points: 0, check: 'nl_assertion', args: { index } }),
    );
  }
  if (basis.includes('COMMUNICATE')) {
    (criteria.communicate_info ?? []).forEach((info, index) =>
      rubric.push({ id: `communicate_${index}`, description: `The agent says "${info}" to the customer.`, points: 0, check: 'communicate_info', args: { info } }),
    );
  }
  return {
    id: raw.id,
    split: train ? 'dev' : 'heldout',
    request: OPENING,
    resources: [{ name: 'db', kind: RETAIL_DB_KIND, content: data.db as unknown as Json }],
    budget: TASK_BUDGET,
    rubric,
    data: { tau2: raw as unknown as Json, dataDir: data.dir },
  };
}

export function rawOf(task: SuiteTask): RawTask {
  const raw = (task.data as { tau2?: RawTask } | undefined)?.tau2;
  if (!raw) throw new CoworkError('invalid_input', `task ${task.id} is not a τ²-bench retail task (no tau2 data)`);
  return raw;
}

const goldCache = new WeakMap<SuiteTask, RetailDb>();

/** The database the task's gold actions give, from the task's starting database. */
export function goldDbOf(task: SuiteTask): RetailDb {
  let gold = goldCache.get(task);
  if (!gold) {
    const start = task.resources.find((r) => r.name === 'db')?.content as unknown as RetailDb;
    gold = replayGold(start, goldActions(rawOf(task)) ?? []).db;
    goldCache.set(task, gold);
  }
  return gold;
}

/** Where two databases differ, as paths (at most `limit`). */
export function differences(actual: unknown, expected: unknown, limit = 5, path = ''): string[] {
  if (canonicalJson(actual) === canonicalJson(expected)) return [];
  const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
  if (!isObj(actual) || !isObj(expected) || Array.isArray(actual) !== Array.isArray(expected)) {
    return [`${path || '(root)'}: ${canonicalJson(actual)?.slice(0, 120)} where the gold database has ${canonicalJson(expected)?.slice(0, 120)}`];
  }
  const out: string[] = [];
  for (const key of new Set([...Object.keys(actual), ...Object.keys(expected)])) {
    if (out.length >= limit) break;
    out.push(...differences(actual[key], expected[key], limit - out.length, path ? `${path}.${key}` : key));
  }
  return out;
}

function dbMatchesGold(context: SuiteCheckContext): CheckVerdict {
  const raw = rawOf(context.task);
  if (goldActions(raw) === null && !raw.evaluation_criteria?.env_assertions) {
    return { pass: true, detail: 'the task has no gold actions (null), which the reference scores as a matching database' };
  }
  if (!endedNormally(context.run)) {
    return { pass: false, detail: `the conversation ended with ${context.run.outcome}, not by the agent or the customer; τ²-bench scores such a run 0` };
  }
  const final = context.resources.db?.content;
  if (!final) return { pass: false, detail: 'the task has no db resource at the end' };
  const gold = goldDbOf(context.task);
  const diff = differences(final, gold);
  return diff.length === 0
    ? { pass: true, detail: 'the final database equals the gold database' }
    : { pass: false, detail: `the final database differs from the gold database: ${diff.join('; ')}` };
}

const judgments = new WeakMap<TrialRun, Promise<Judgment[]>>();

async function nlAssertion(context: SuiteCheckContext, args: Json | undefined): Promise<CheckVerdict> {
  const assertions = rawOf(context.task).evaluation_criteria?.nl_assertions ?? [];
  const index = (args as { index: number }).index;
  const assertion = assertions[index] ?? '';
  if (!context.judge) return { pass: true, judged: false, detail: `not judged in replay (no judge model; 0 points): ${assertion}` };
  let pending = judgments.get(context.run);
  if (!pending) {
    pending = judgeAssertions(context.judge, context.run, assertions, context.signal);
    judgments.set(context.run, pending);
  }
  const verdict = (await pending)[index]!;
  return { pass: verdict.met, detail: `${verdict.met ? 'met' : 'not met'}: ${verdict.reasoning}` };
}

function communicateInfo(context: SuiteCheckContext, args: Json | undefined): CheckVerdict {
  const info = (args as { info: string }).info;
  const found = agentMessages(context.run).find((m) => m.toLowerCase().replace(/,/g, '').includes(info.toLowerCase()));
  return found !== undefined ? { pass: true, detail: `"${info}" said in: ${found.slice(0, 200)}` } : { pass: false, detail: `"${info}" was not said to the customer` };
}

/** The data folder `tasks()` last read: the policy for Main's instructions comes from it. */
let lastData: RetailData | undefined;

export const tau2RetailSuite = defineSuite({
  name: SUITE_NAME,
  description:
    'τ²-bench retail (Sierra, MIT): 114 customer-service tasks on a store database, scored as the reference scores them (final database equal to the gold actions\' one; natural-language assertions judged by the model). Data from --data DIR.',
  dir: pluginRoot(),
  checks: {
    db_matches_gold: dbMatchesGold,
    nl_assertion: nlAssertion,
    communicate_info: communicateInfo,
  },
  get instructions(): string | undefined {
    try {
      return agentInstructions((lastData ?? loadData()).policy);
    } catch {
      return undefined;
    }
  },
  tasks: async ({ data }) => {
    const loaded = loadData(data);
    lastData = loaded;
    return loaded.tasks.map((raw) => suiteTask(loaded, raw));
  },
  user: (context) => simulatedUser(context, rawOf(context.task)),
});

export { defaultDataDir };
