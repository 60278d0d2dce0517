/**
 * Invariant: the web suite is scored by its checks, both ways, with no model server. Its reference
 * solutions (session scripts played through the real runtime, with the web plugin, in fresh
 * workspaces) score full marks on every task, judged in Chromium, by files and by the zip export;
 * each flawed solution loses exactly the rubric items it names (`loses`); replaying the same
 * scripts gives the same scores, details included.
 */
import { loadSuiteTasks } from '@cowork/host/embed';
import { solutionTests } from '@cowork/host/testkit';
import { plugin, sharedChromium, webSuite } from '../src';

// One Chromium for every trial: each trial's host would otherwise start and stop its own.
beforeAll(() => sharedChromium().acquire());
afterAll(() => sharedChromium().release());

solutionTests(webSuite, { host: { plugins: [plugin] } });

it('is the plugin’s suite, on web apps', async () => {
  const tasks = await loadSuiteTasks(webSuite);
  expect(new Set(tasks.flatMap((t) => t.resources.map((r) => r.kind)))).toEqual(new Set(['web.app']));
  expect(plugin.suites).toContain(webSuite);
});
