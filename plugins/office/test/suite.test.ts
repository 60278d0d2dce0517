/**
 * Invariant: the office suite is scored by its checks, both ways, with no model server and with the
 * real applications (LibreOffice renders, office_lint, poppler, python-docx). Its reference
 * solutions (session scripts played through the real runtime in fresh workspaces) score full marks
 * on every task; each flawed solution loses exactly the rubric items it names (`loses`); replaying
 * the same scripts gives the same scores and details.
 */
import { loadSuiteTasks } from '@cowork/host/embed';
import { solutionTests } from '@cowork/host/testkit';
import { plugin } from '../src';
import { officeSuite } from '../src/suite';

solutionTests(officeSuite, { host: { plugins: [plugin] } });

it('is the plugin’s suite, on decks and documents', async () => {
  const tasks = await loadSuiteTasks(officeSuite);
  expect(new Set(tasks.flatMap((t) => t.resources.map((r) => r.kind)))).toEqual(new Set(['office.presentation', 'office.document']));
  expect(plugin.suites).toContain(officeSuite);
});
