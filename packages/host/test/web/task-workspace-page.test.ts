/**
 * Invariant: a task's workspace is visible and workable on the page. After Main wrote a file over
 * two turns, ran an experiment and published the file, the task shows its work files with the turn
 * and author of each, the snapshots with each turn's patch on demand, the run with its metrics, and
 * the published item; a person restores the file as it was after turn 1 from the page, a new commit
 * by them, and the file's bytes are back on disk.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { taskPaths } from '../../src/agents/task-files';
import { runSuite } from '../../src/evaluation/runner';
import { runtimeSuite } from '../../src/evaluation/runtime-suite';
import { BENCH_RUNS_DIR } from '../../src/server/routes/bench';
import { OpenAiCompatibleProvider } from '../../src/models/openai-provider';
import type { WireChatRequest } from '../../src/models/wire';
import { reply, startScriptedModelServer, type ScriptStep, type ScriptedModelServer } from '../../src/testkit/scripted-model-server';
import { body, startTestServer, type TestServer } from '../server/harness';
import { filesProbe } from '../support/task-work';
import { launchChromium, openSignedIn, screenshot, type TestBrowser } from './browser';

const STEPS = [
  { name: 'write_file', arguments: { path: 'notes/plan.md', text: 'first draft\n' } },
  { name: 'write_file', arguments: { path: 'notes/plan.md', text: 'second draft\n' } },
  { name: 'start_run', arguments: { name: 'sweep lr', params: { lr: 0.1 }, command: 'sh', args: ['-c', 'printf \'{"step":1,"loss":0.5}\\n{"step":2,"loss":0.25}\\n\' >> metrics.jsonl; echo trained two steps'] } },
  { name: 'publish', arguments: { file: 'notes/plan.md' } },
];

function script(request: WireChatRequest): ScriptStep {
  const answered = request.messages.filter((m) => m.role === 'tool').length;
  if (answered < STEPS.length) return reply.toolCalls([STEPS[answered]!]);
  return reply.text('The plan is written and published.');
}

let browser: TestBrowser;
let model: ScriptedModelServer;
let t: TestServer;
let baseUrl: string;
let annToken: string;
beforeAll(async () => {
  browser = await launchChromium();
  model = await startScriptedModelServer(script);
  const provider = new OpenAiCompatibleProvider({ baseUrl: model.baseUrl, model: 'scripted', maxRetries: 0 });
  t = await startTestServer({ port: 0, provider, runtime: { maxOutputTokens: 500 } }, { plugins: [filesProbe] });
  // Publishing waits for a person under the default policy; this workspace allows it.
  writeFileSync(join(t.host.workspaceDir, 'policy.json'), JSON.stringify({ approvals: { publish: 'allow' } }));
  // A benchmark run in the workspace, whose report the page opens.
  await runSuite({ suite: runtimeSuite, tasks: ['append-line'], trials: 1, model: { kind: 'script', dir: join(runtimeSuite.dir, 'solutions', 'reference') }, modelName: 'replay', host: {}, outDir: join(t.host.workspaceDir, BENCH_RUNS_DIR, 'first') });
  baseUrl = await t.listenHttp();
  annToken = body<{ token: string }>(await t.request({ method: 'POST', url: '/api/users', payload: { name: 'ann' } })).token;
}, 60_000);
afterAll(async () => {
  await t?.dispose();
  await model?.close();
  await browser?.close();
});

it("shows a task's work files, snapshots, runs and published results, and restores a file as a new commit by the person", async () => {
  const { page, problems } = await openSignedIn(browser.context, baseUrl, undefined, annToken);
  await page.fill('#task-request', 'write the plan');
  await page.click('#new-task button[type=submit]');
  await page.locator('#conversation', { hasText: 'written and published' }).waitFor();
  const taskId = (await page.locator('#task-start-status').textContent())!.replace('Started ', '').trim();

  // The run (its job ends quickly) and the published file.
  await page.locator('#runs li', { hasText: 'sweep lr' }).filter({ hasText: 'succeeded' }).waitFor();
  await page.locator('#runs li', { hasText: 'loss 0.25 @2 (best 0.25, min)' }).waitFor();
  expect(await page.locator('#runs li').textContent()).toContain('lr=0.1');
  await page.locator('#published li', { hasText: 'plan.md' }).waitFor();

  // Main and its agents with their status; the run's job with its log.
  await page.locator('#task-state li[data-agent="main"]', { hasText: 'Main: waiting' }).waitFor();
  const job = page.locator('#jobs li[data-job-id]');
  await job.locator('.job-status', { hasText: 'succeeded' }).waitFor();
  await job.locator('summary', { hasText: 'Log' }).click();
  await job.locator('pre.job-log', { hasText: 'trained two steps' }).waitFor();

  // The workspace's benchmark report opens from the page.
  const [report] = await Promise.all([page.context().waitForEvent('page'), page.click('#bench-runs li[data-bench-run="first"] a')]);
  await report.waitForLoadState();
  expect(await report.content()).toContain('append-line');
  await report.close();

  // The files and the snapshots of turns 1 and 2.
  await page.locator('#work-files li[data-path="notes/plan.md"]', { hasText: 'turn 2 by agent:main' }).waitFor();
  const snapshots = page.locator('#work-files ol.snapshots li');
  await page.locator('#work-files ol.snapshots li', { hasText: 'turn 1 of main' }).waitFor();
  expect(await snapshots.count()).toBeGreaterThanOrEqual(2);
  await page.click('#work-files button[data-turn="2"]');
  await page.locator('#work-diff', { hasText: '+second draft' }).waitFor();
  expect(await page.locator('#work-diff').textContent()).toContain('-first draft');
  await screenshot(page, 'task-workspace-1-files-runs');

  // Restore turn 1's bytes from the page.
  await page.selectOption('#work-restore-path', 'notes/plan.md');
  await page.fill('#work-restore-turn', '1');
  await page.click('#work-restore button[type=submit]');
  await page.locator('#work-restore-status', { hasText: 'Restored notes/plan.md as after turn 1' }).waitFor();
  await page.locator('#work-files li[data-path="notes/plan.md"]', { hasText: 'restored by human:ann' }).waitFor();
  await page.locator('#work-files ol.snapshots li', { hasText: 'human:ann: restore notes/plan.md' }).waitFor();
  expect(readFileSync(join(taskPaths(t.host.workspaceDir, taskId).work, 'notes', 'plan.md'), 'utf8')).toBe('first draft\n');

  // A turn that does not exist: a clear message, nothing restored.
  await page.fill('#work-restore-turn', '99');
  await page.click('#work-restore button[type=submit]');
  await page.locator('#work-restore-status', { hasText: 'Not restored' }).waitFor();
  expect(readFileSync(join(taskPaths(t.host.workspaceDir, taskId).work, 'notes', 'plan.md'), 'utf8')).toBe('first draft\n');
  await screenshot(page, 'task-workspace-2-restored');
  expect(problems).toEqual([]);
  await page.close();
}, 120_000);
