import { join } from 'node:path';
import { loadSuiteTasks, runSuite } from '@cowork/host/embed';
import { tempDir } from '@cowork/host/testkit';
import { FAMILIES, generate, type FamilyTask } from '../src/family/families';
import { plugin } from '../src/index';
import { familySuite, writeFamilyScripts } from '../src/suite';

const dir = tempDir('trainer-suite-');
afterAll(() => dir.cleanup());

/** Two instances per family and split. */
const sample: FamilyTask[] = FAMILIES.flatMap((f) => [...generate(f, 'train', 2, 1), ...generate(f, 'heldout', 2, 2)]);

describe('the task families as a benchmark suite (trainer-families)', () => {
  test('lists every family in both splits, each task valid for the runner', async () => {
    const tasks = await loadSuiteTasks(familySuite);
    for (const family of FAMILIES) {
      const prefix = `${family.replace(/_/g, '-')}-`;
      expect(tasks.filter((t) => t.id.startsWith(prefix) && t.split === 'dev').length).toBeGreaterThanOrEqual(100);
      expect(tasks.filter((t) => t.id.startsWith(prefix) && t.split === 'heldout').length).toBeGreaterThanOrEqual(20);
    }
  });

  test('the reference scripts, replayed through the real host, score full marks; the host\'s results are what the family expects', async () => {
    const scripts = join(dir.path, 'reference');
    writeFamilyScripts(scripts, sample);
    const results = await runSuite({ suite: familySuite, tasks: sample.map((t) => t.id), trials: 1, model: { kind: 'script', dir: scripts }, modelName: 'replay', host: { plugins: [plugin] }, outDir: join(dir.path, 'run') });
    expect(results.trials.map((t) => [t.task, t.status, t.passed, t.items.filter((i) => !i.pass).map((i) => i.detail)])).toEqual(sample.map((t) => [t.id, 'scored', true, []]));
  }, 120_000);

  test('a solution that answers a wrong value, commits at the wrong revision or never finishes loses those items', async () => {
    const scripts = join(dir.path, 'flawed');
    const [read, commit, create] = FAMILIES.map((f) => generate(f, 'heldout', 1, 2)[0]!);
    const flawed: FamilyTask[] = [
      { ...read!, script: [read!.script[0]!, { toolCalls: [{ name: 'finish', arguments: { summary: 'The value is 1.' } }] }] },
      { ...commit!, script: [{ toolCalls: [{ name: 'commit_resource', arguments: { ...(commit!.script[0]!.toolCalls[0]!.arguments as object), baseRevision: 0 } }] }, commit!.script[1]!] },
      { ...create!, script: [create!.script[0]!] },
    ];
    writeFamilyScripts(scripts, flawed);
    const results = await runSuite({ suite: familySuite, tasks: flawed.map((t) => t.id), trials: 1, model: { kind: 'script', dir: scripts }, modelName: 'replay', host: { plugins: [plugin] }, outDir: join(dir.path, 'flawed-run') });
    const lost = results.trials.map((t) => [t.task, t.items.filter((i) => !i.pass).map((i) => i.id)]);
    expect(lost).toEqual([
      [read!.id, ['answer']],
      // A commit at a stale revision is refused (revision_conflict): nothing appended, and the summary claims a revision that is not there.
      [commit!.id, ['committed']],
      [create!.id, ['answer']],
    ]);
  }, 120_000);
});
