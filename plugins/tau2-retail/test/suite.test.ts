import { loadSuiteTasks } from '@cowork/host/embed';
import type { SuiteCheckContext, SuiteTask, TextModel, TrialRun } from '@cowork/host';
import { loadData } from '../src/data';
import { goldActions, replayGold } from '../src/gold';
import { tau2RetailSuite, TASK_BUDGET } from '../src/suite';
import { AGENT_GREETING, OPENING } from '../src/user';
import { DATA_DIR, describeWithData } from './helpers';

function run(outcome: string, messages: { role: string; content: string | null }[] = []): TrialRun {
  return { request: OPENING, outcome, summary: null, entries: messages.map((message, turn) => ({ agentId: 'main', turn, message, at: '' })), tokens: { input: 0, output: 0 } };
}

function context(task: SuiteTask, content: unknown, trial: TrialRun, judge?: TextModel): SuiteCheckContext {
  return {
    task,
    resources: { db: { id: 'r1', kind: 'tau2.retail-db', content, revision: 1 } as never },
    api: undefined as never,
    exportResource: async () => new Uint8Array(),
    runTool: async () => ({ content: null }),
    run: trial,
    workDir: '/tmp',
    ...(judge ? { judge } : {}),
    signal: new AbortController().signal,
  };
}

describeWithData('the tau2-retail suite', () => {
  test('lists the 114 tasks with train as dev and test as heldout, each with its rubric', async () => {
    const tasks = await loadSuiteTasks(tau2RetailSuite, { data: DATA_DIR }); // the host's own checks of a suite's tasks
    const data = loadData();
    expect(tasks).toHaveLength(114);
    expect(tasks.filter((t) => t.split === 'dev').map((t) => t.id)).toEqual(data.split.train);
    expect(tasks.filter((t) => t.split === 'heldout').map((t) => t.id)).toEqual(data.split.test);
    for (const task of tasks) {
      expect(task.request).toBe(OPENING);
      expect(task.resources).toEqual([{ name: 'db', kind: 'tau2.retail-db', content: data.db }]);
      expect(task.budget).toEqual(TASK_BUDGET);
      expect(task.rubric[0]).toMatchObject({ id: 'db', points: 1, check: 'db_matches_gold' });
    }
    const nl = tasks.flatMap((t) => t.rubric.filter((i) => i.check === 'nl_assertion'));
    expect(nl.every((i) => i.points === 0)).toBe(true);
    expect(new Set(tasks.filter((t) => t.rubric.length > 1).map((t) => t.id)).size).toBe(40);
    // Tasks 33 and 34 are scored on the database alone; communicate_info is not in any task's reward basis.
    expect(tasks.find((t) => t.id === '33')!.rubric).toHaveLength(1);
    expect(tasks.flatMap((t) => t.rubric).some((i) => i.check === 'communicate_info')).toBe(false);
  });

  test('Main is told the policy, framed as τ²-bench frames it', async () => {
    await tau2RetailSuite.tasks!({ data: DATA_DIR });
    const policy = loadData().policy;
    expect(tau2RetailSuite.instructions).toContain(`<policy>\n${policy}\n</policy>`);
    expect(tau2RetailSuite.instructions).toContain('You are a customer service agent that helps the user according to the <policy> provided below.');
  });

  test('a missing data folder is an error naming the setting', async () => {
    await expect(tau2RetailSuite.tasks!({ data: '/nonexistent/tau2-retail' })).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringMatching(/τ²-bench retail data not found: \/nonexistent\/tau2-retail lacks db\.json, tasks\.json, split_tasks\.json, policy\.md\. Give the folder with --data DIR/),
    });
  });

  test('db_matches_gold: the gold database passes, the starting one fails naming what differs, a run that did not end normally fails', async () => {
    const tasks = await tau2RetailSuite.tasks!({ data: DATA_DIR });
    const task = tasks.find((t) => t.id === '5')!;
    const check = tau2RetailSuite.checks.db_matches_gold!;
    const gold = replayGold(loadData().db, goldActions(loadData().tasks[5]!)!).db;
    expect(await check(context(task, JSON.parse(JSON.stringify(gold)), run('done')), undefined)).toEqual({ pass: true, detail: 'the final database equals the gold database' });
    expect(await check(context(task, JSON.parse(JSON.stringify(gold)), run('waiting: awaiting_user')), undefined)).toMatchObject({ pass: true });
    const start = await check(context(task, task.resources[0]!.content, run('done')), undefined);
    expect(start.pass).toBe(false);
    expect(start.detail).toBe(
      'the final database differs from the gold database: orders.#W6390527.status: "delivered" where the gold database has "return requested"; ' +
        'orders.#W6390527.return_items: null where the gold database has ["8538875209"]; orders.#W6390527.return_payment_method_id: null where the gold database has "paypal_7644869"',
    );
    expect(await check(context(task, gold, run('turn_limit')), undefined)).toMatchObject({ pass: false, detail: expect.stringContaining('ended with turn_limit') });
    // A task without gold actions: the starting database is the gold one.
    const none = tasks.find((t) => t.id === '24')!;
    expect(await check(context(none, none.resources[0]!.content, run('done')), undefined)).toMatchObject({ pass: true });
  });

  test('natural-language assertions: not judged in replay; judged in one request by the model otherwise', async () => {
    const tasks = await tau2RetailSuite.tasks!({ data: DATA_DIR });
    const task = tasks.find((t) => t.id === '24')!;
    const check = tau2RetailSuite.checks.nl_assertion!;
    // A trial's assertions are judged once (one request for all of them): each judge here gets a trial of its own.
    const conversation = (): TrialRun =>
      run('done', [
        { role: 'user', content: OPENING },
        { role: 'assistant', content: 'The two t-shirts are polyester and cotton.' },
      ]);
    const trial = conversation();
    expect(await check(context(task, null, trial), { index: 0 })).toEqual({
      pass: true,
      judged: false,
      detail: 'not judged in replay (no judge model; 0 points): Agent should tell the user the materials of the two t-shirts are polyester and cotton.',
    });
    const asked: string[] = [];
    const judge: TextModel = async (messages) => {
      asked.push(messages.map((m) => `${m.role}: ${m.content}`).join('\n'));
      return '```json\n{"results": [{"expectedOutcome": "Agent should tell the user the materials of the two t-shirts are polyester and cotton.", "reasoning": "it did", "metExpectation": true}]}\n```';
    };
    expect(await check(context(task, null, trial, judge), { index: 0 })).toEqual({ pass: true, detail: 'met: it did' });
    expect(asked[0]).toContain('conversation:\nuser: Hi, I need some help, please.\nassistant: The two t-shirts are polyester and cotton.\n\nexpectedOutcomes:\n[\'Agent should tell');
    const no: TextModel = async () => '{"results": [{"expectedOutcome": "x", "reasoning": "it never said so", "metExpectation": false}]}';
    expect(await check(context(task, null, conversation(), no), { index: 0 })).toEqual({ pass: false, detail: 'not met: it never said so' });
    await expect(check(context(task, null, conversation(), async () => 'I think so'), { index: 0 })).rejects.toMatchObject({ message: expect.stringContaining("the judge's answer is not the JSON asked for") });
  });

  test('communicate_info, as the reference checks it: lower case, commas removed from what the agent said', async () => {
    const tasks = await tau2RetailSuite.tasks!({ data: DATA_DIR });
    const check = tau2RetailSuite.checks.communicate_info!;
    const trial = run('done', [{ role: 'assistant', content: 'Your refund is $1,093.34 in total.' }]);
    expect(await check(context(tasks[0]!, null, trial), { info: '1093.34' })).toMatchObject({ pass: true });
    expect(await check(context(tasks[0]!, null, trial), { info: '1093.35' })).toMatchObject({ pass: false });
  });

  test('the simulated customer: the scenario in the system prompt, the whole conversation, stop tokens end it', async () => {
    const tasks = await tau2RetailSuite.tasks!({ data: DATA_DIR });
    const task = tasks.find((t) => t.id === '0')!;
    const seen: { role: string; content: string }[][] = [];
    const answers = ['I want to exchange two items of an order.', 'Thanks, that is all. ###STOP###'];
    const model: TextModel = async (messages) => {
      seen.push(messages.map((m) => ({ ...m })));
      return answers[seen.length - 1]!;
    };
    const signal = new AbortController().signal;
    expect(await tau2RetailSuite.user!({ task, replies: ['How can I help?'], said: [OPENING], model, signal })).toBe('I want to exchange two items of an order.');
    expect(await tau2RetailSuite.user!({ task, replies: ['How can I help?', 'Done. Anything else?'], said: [OPENING, 'I want to exchange two items of an order.'], model, signal })).toBeNull();
    const system = seen[0]![0]!;
    expect(system.role).toBe('system');
    expect(system.content).toMatch(/^# User Simulation Guidelines\nYou are playing the role of a customer/);
    expect(system.content).toContain('<scenario>\nInstructions:\n\tDomain: retail\n\tReason for call:\n\t\tYou received your order #W2378156');
    expect(system.content).toContain('\tKnown info:\n\t\tYou are Yusuf Rossi in zip code 19122.\n\tUnknown info:\n\t\tYou do not remember your email address.\n\tTask instructions:\n\t\tYou are detail-oriented');
    expect(seen[1]!.slice(1)).toEqual([
      { role: 'user', content: AGENT_GREETING },
      { role: 'assistant', content: OPENING },
      { role: 'user', content: 'How can I help?' },
      { role: 'assistant', content: 'I want to exchange two items of an order.' },
      { role: 'user', content: 'Done. Anything else?' },
    ]);
    expect(await tau2RetailSuite.user!({ task, replies: ['x'], said: [OPENING], signal })).toBeNull(); // no model: replay scripts speak for the customer
  });
});
