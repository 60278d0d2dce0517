/**
 * Invariant: `cowork bench run SUITE --task TASK` records the finished suite run as a run of the
 * task, as agents' and plugins' runs are: each trial a step with its score and pass, then the
 * all-pass rate, mean score and invalid trials matching results.json. An unknown task is refused
 * before any trial runs (nothing written in --out).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runtimeSuite } from '../../src/evaluation/runtime-suite';
import type { ResultsFile } from '../../src/evaluation/results-format';
import { Host } from '../../src/host';
import { recordTask } from '../support/task-work';
import { jsonOf, tempDir, workspaceCli, type ErrorJson } from './cli-harness';

const dir = tempDir();
afterAll(() => dir.cleanup());
const workspace = join(dir.path, 'ws');
const cli = workspaceCli(workspace);
const reference = join(runtimeSuite.dir, 'solutions', 'reference');

beforeAll(async () => {
  const host = await Host.open({ workspaceDir: workspace });
  await recordTask(host, 'task_bench');
  await host.close();
});

it('records the suite run as a finished run of the task with its figures', async () => {
  const out = join(dir.path, 'out');
  const done = await cli.json<{ results: string; run: { id: string } }>('bench', 'run', 'runtime', '--replay', reference, '--tasks', 'append-line,memory-notes', '--out', out, '--task', 'task_bench');
  const results = JSON.parse(readFileSync(done.results, 'utf8')) as ResultsFile;
  expect(results.trials).toHaveLength(2);

  const runs = await cli.json<{ runs: { id: string; name: string; status: string; params: Record<string, unknown>; metrics: Record<string, { last: number; count: number }> }[] }>('task', 'task_bench', 'runs');
  expect(runs.runs).toHaveLength(1);
  const [run] = runs.runs;
  expect(run!.id).toBe(done.run.id);
  expect(run).toMatchObject({ name: 'bench runtime', status: 'succeeded', params: { suite: 'runtime', split: 'all', trialsPerTask: 1, provider: 'replay', results: done.results } });
  const passed = results.trials.filter((t) => t.passed).length;
  expect(run!.metrics.all_pass!.last).toBe(Math.round((10000 * passed) / 2) / 100);
  expect(run!.metrics.invalid!.last).toBe(results.trials.filter((t) => t.status === 'invalid').length);
  expect(run!.metrics.score!.count).toBe(2);
  expect(run!.metrics.passed!.count).toBe(2);
});

it('refuses an unknown task before running anything', async () => {
  const out = join(dir.path, 'never');
  const refused = await cli.run('bench', 'run', 'runtime', '--replay', reference, '--out', out, '--task', 'task_nope', '--json');
  expect(refused.code).toBe(4);
  expect(jsonOf<ErrorJson>(refused).error).toMatchObject({ code: 'not_found', taskId: 'task_nope' });
  expect(existsSync(out)).toBe(false);
});
