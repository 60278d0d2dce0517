/**
 * Invariant: a task's panel shows, while the task works and without a reload, the tree of Main and
 * its subagents with each one's status, the Inbox entries not yet delivered, its active monitors,
 * and each running job's log with new lines arriving live (the job-log route, followed while the
 * Log is open); once the work goes on, the same panel shows the subagent done and the Inbox empty.
 */
import type { Page } from 'playwright-core';
import type { WireChatRequest } from '../../src/models/wire';
import { reply, type ScriptStep } from '../../src/testkit/scripted-model-server';
import { caller } from '../agents/runtime-harness';
import { openSignedIn, screenshot } from './browser';
import { useTaskPageServer } from './task-server';

// Main starts a job that writes a numbered line every 0.2 s, a monitor, and a subagent; then its next
// model call (and the subagent's) waits until the test lets them go, so all three are seen at work.
const STEPS = [
  { name: 'start_job', arguments: { name: 'ticker', command: 'sh', args: ['-c', 'i=0; while [ $i -lt 300 ]; do i=$((i+1)); echo "tick $i"; sleep 0.2; done'] } },
  { name: 'create_monitor', arguments: { kind: 'interval', name: 'hourly check', intervalSeconds: 3600 } },
  { name: 'delegate', arguments: { assignment: 'check the sources', mode: 'async', agent: 'alpha' } },
];

let letGo: () => void = () => {};
const held = new Promise<void>((resolve) => (letGo = resolve));

async function script(request: WireChatRequest): Promise<ScriptStep> {
  if (caller(request) !== 'main') {
    await held;
    return reply.toolCalls([{ name: 'submit_result', arguments: { result: 'the sources are fine' } }]);
  }
  const answered = request.messages.filter((m) => m.role === 'tool').length;
  if (answered < STEPS.length) return reply.toolCalls([STEPS[answered]!]);
  await held;
  return reply.text('Working on it.');
}

const t = useTaskPageServer(script);
afterAll(() => letGo());

/** The highest "tick N" the open log shows. */
async function lastTick(page: Page): Promise<number> {
  const text = (await page.locator('#jobs pre.job-log').textContent()) ?? '';
  return Math.max(0, ...[...text.matchAll(/tick (\d+)/g)].map((m) => Number(m[1])));
}

it("shows a working task's subagent tree with status, pending Inbox, active monitor, and a job's log lines arriving live", async () => {
  const { page, problems } = await openSignedIn(t.browser.context, t.baseUrl);
  try {
    await page.fill('#task-request', 'gather the numbers');
    await page.click('#new-task button[type=submit]');
    const state = page.locator('#task-state');
    // A subagent's id is the name Main gave it and a suffix (alpha-c7a77c).
    const alpha = state.locator('li[data-agent^="alpha-"]');
    const main = state.locator('li[data-agent="main"]');
    await alpha.filter({ hasText: /^alpha-\w+ \(async\): running/ }).waitFor();
    expect(await alpha.textContent()).toContain('check the sources');
    // The subagent is drawn inside Main's entry: a tree, not a flat list.
    expect(await main.locator('li[data-agent^="alpha-"]').count()).toBe(1);
    await main.filter({ hasText: /^Main: running/ }).waitFor();
    await state.locator('[data-section="monitors"] li', { hasText: 'hourly check (interval): active' }).waitFor();

    // A person's message while Main is in its turn waits in the Inbox until the turn ends.
    const taskId = (await page.locator('#task-start-status').textContent())!.replace('Started ', '').trim();
    const inbox = state.locator('[data-section="inbox"] li');
    await page.fill('#message-text', 'also check March');
    await page.click('#composer button[type=submit]');
    await inbox.filter({ hasText: /^to main from human:\S+, user, .*: “also check March”$/ }).waitFor();

    // The job's log, opened, follows the job: later lines arrive without a reload.
    const job = page.locator('#jobs li[data-job-id]');
    await job.locator('.job-status', { hasText: 'running' }).waitFor();
    expect(await job.locator('strong').textContent()).toBe('ticker');
    await job.locator('summary', { hasText: 'Log' }).click();
    await job.locator('pre.job-log', { hasText: /tick \d+/ }).waitFor();
    const first = await lastTick(page);
    await job.locator('pre.job-log', { hasText: new RegExp(`^tick ${first + 5}$`, 'm') }).waitFor();
    expect(await lastTick(page)).toBeGreaterThanOrEqual(first + 5);
    await screenshot(page, 'task-panel-1-working');

    // The turn ends and the subagent submits: the tree and the Inbox follow.
    letGo();
    await alpha.filter({ hasText: /^alpha-\w+ \(async\): done/ }).waitFor();
    await state.locator('[data-section="inbox"] p', { hasText: 'None.' }).waitFor();
    expect((await t.server.host.store.read((tx) => tx.inbox.pending(taskId))).length).toBe(0);
    await screenshot(page, 'task-panel-2-delivered');
    expect(problems).toEqual([]);
  } finally {
    await page.close();
  }
}, 120_000);
