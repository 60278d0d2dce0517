/**
 * Invariants of the benchmark runner:
 * - bad input is refused before anything runs, naming the file: a task file that does not match
 *   the schema, a rubric naming a check the suite lacks, a missing fixture, an unknown task;
 * - a trial whose check throws, or whose script belongs to another task, is `invalid` with the
 *   reason, and the run goes on;
 * - a run killed with SIGKILL halfway and resumed with --resume ends with the same results as an
 *   uninterrupted run.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { runSuite } from '../../src/evaluation/runner';
import { runtimeSuite } from '../../src/evaluation/runtime-suite';
import type { ResultsFile } from '../../src/evaluation/results-format';
import { defineSuite } from '../../src/plugins/define-plugin';
import { hostDir, requireCurrentBuild } from '../support/built-host';
import { caught, tempDir } from '../support/temp-host';

const dir = tempDir('cowork-bench-runner-');
afterAll(() => dir.cleanup());
const reference = join(runtimeSuite.dir, 'solutions', 'reference');

/** A suite of one task file written here; `checks` as given. */
function suiteWith(name: string, task: unknown, files: Record<string, string> = {}, checks = { ok: () => ({ pass: true, detail: 'fine' }) }) {
  const suiteDir = join(dir.path, name);
  mkdirSync(suiteDir, { recursive: true });
  writeFileSync(join(suiteDir, 'one.task.json'), JSON.stringify(task));
  for (const [file, text] of Object.entries(files)) writeFileSync(join(suiteDir, file), text);
  return defineSuite({ name: 'test-suite', description: 'a suite of this test', dir: suiteDir, checks });
}

const task = { id: 'one', split: 'dev', request: 'Finish.', resources: [{ name: 'notes', kind: 'text' }], rubric: [{ id: 'ok', description: 'fine', points: 1, check: 'ok' }] };

describe('bad input is refused before anything runs, naming the file', () => {
  it.each([
    ['a task file that does not match the schema', { ...task, split: 'sometimes' }, {}, /one\.task\.json: .*split/],
    ['a rubric naming a check the suite lacks', { ...task, rubric: [{ id: 'x', description: 'x', points: 1, check: 'nope' }] }, {}, /names check "nope", which suite test-suite does not have/],
    ['a missing fixture', { ...task, resources: [{ name: 'deck', kind: 'text', file: 'missing.txt' }] }, {}, /fixture file missing\.txt does not exist/],
    ['an id that is not its file name', { ...task, id: 'two' }, {}, /id "two" must equal the file's name/],
    ['a request naming a resource the task lacks', { ...task, request: 'Read {{resource:nope}}.' }, {}, /names \{\{resource:nope\}\}, which is not one of the task's resources/],
    ['ops that are not a list', { ...task, resources: [{ name: 'notes', kind: 'text', ops: { type: 'append' } }] }, {}, /ops/],
  ])('%s', async (name, body, files, message) => {
    const suite = suiteWith(name.replace(/\W+/g, '-'), body, files);
    const out = join(dir.path, `out-${name.replace(/\W+/g, '-')}`);
    const error = await caught(() => runSuite({ suite, trials: 1, model: { kind: 'script', dir: reference }, modelName: 'replay', host: {}, outDir: out }));
    expect([error.code, error.message]).toEqual(['invalid_input', expect.stringMatching(message)]);
    expect(existsSync(join(out, 'results.json'))).toBe(false);
  });

  it('an unknown task', async () => {
    const error = await caught(() => runSuite({ suite: runtimeSuite, tasks: ['nope'], trials: 1, model: { kind: 'script', dir: reference }, modelName: 'replay', host: {}, outDir: join(dir.path, 'out-unknown') }));
    expect([error.code, error.message]).toEqual(['invalid_input', expect.stringMatching(/suite runtime has no task nope; it has: append-line/)]);
  });
});

it('records a trial whose check throws, or whose script is another task\'s, as invalid with the reason, and goes on', async () => {
  const suite = suiteWith('crashing-check', { ...task, rubric: [{ id: 'boom', description: 'crashes', points: 1, check: 'boom' }] }, {}, { boom: () => { throw new Error('the checker fell over'); } } as never);
  const scripts = join(dir.path, 'scripts');
  mkdirSync(scripts, { recursive: true });
  writeFileSync(join(scripts, 'one.json'), JSON.stringify({ format: 'cowork-bench-script/1', suite: 'test-suite', task: 'one', agents: { main: [{ toolCalls: [{ name: 'finish', arguments: { summary: 'done' } }] }] } }));
  const crashed = await runSuite({ suite, trials: 2, model: { kind: 'script', dir: scripts }, modelName: 'replay', host: {}, outDir: join(dir.path, 'out-crash') });
  expect(crashed.trials.map((t) => [t.status, t.reason, t.score, t.passed])).toEqual([
    ['invalid', 'check boom of item boom failed: the checker fell over', 0, false],
    ['invalid', 'check boom of item boom failed: the checker fell over', 0, false],
  ]);
  // The runtime suite's append-line task played from the test suite's script for another task.
  writeFileSync(join(scripts, 'append-line.json'), JSON.stringify({ format: 'cowork-bench-script/1', suite: 'runtime', task: 'memory-notes', agents: { main: [] } }));
  const mismatched = await runSuite({ suite: runtimeSuite, tasks: ['append-line'], trials: 1, model: { kind: 'script', dir: scripts }, modelName: 'replay', host: {}, outDir: join(dir.path, 'out-mismatch') });
  expect(mismatched.trials.map((t) => [t.status, t.reason])).toEqual([['invalid', expect.stringMatching(/replay_mismatch: .*append-line\.json is the script of runtime\/memory-notes, not of runtime\/append-line/)]]);
}, 120_000);

it("gives Main the request with each {{resource:NAME}} as that trial's id, the resource at the revision its ops reach", async () => {
  const seen: { request: string; revision: number }[] = [];
  const suite = suiteWith('placeholders', {
    ...task,
    request: 'Append to {{resource:notes}} at revision 2.',
    resources: [{ name: 'notes', kind: 'text', content: { text: 'a\n' }, ops: [{ type: 'append', text: 'b\n' }, { type: 'append', text: 'c\n' }] }],
    rubric: [{ id: 'seen', description: 'what Main was given', points: 1, check: 'seen' }],
  }, {}, {
    seen: (context: { run: { request: string }; resources: Record<string, { id: string; revision: number; content: unknown }> }) => {
      const notes = context.resources.notes!;
      seen.push({ request: context.run.request.replace(notes.id, 'ID'), revision: notes.revision });
      const pass = context.run.request === `Append to ${notes.id} at revision 2.` && notes.revision === 2 && JSON.stringify(notes.content) === JSON.stringify({ text: 'a\nb\nc\n' });
      return { pass, detail: pass ? 'as given' : 'not as given' };
    },
  } as never);
  const scripts = join(dir.path, 'placeholder-scripts');
  mkdirSync(scripts, { recursive: true });
  writeFileSync(join(scripts, 'one.json'), JSON.stringify({ format: 'cowork-bench-script/1', suite: 'test-suite', task: 'one', agents: { main: [{ toolCalls: [{ name: 'finish', arguments: { summary: 'done' } }] }] } }));
  const run = await runSuite({ suite, trials: 1, model: { kind: 'script', dir: scripts }, modelName: 'replay', host: {}, outDir: join(dir.path, 'out-placeholders') });
  expect(seen).toEqual([{ request: 'Append to ID at revision 2.', revision: 2 }]);
  expect(run.trials.map((t) => [t.status, t.passed])).toEqual([['scored', true]]);
}, 60_000);

describe('a run killed halfway', () => {
  beforeAll(requireCurrentBuild);

  const bench = (out: string, ...extra: string[]) => [join(hostDir, 'bin', 'cowork.js'), 'bench', 'run', 'runtime', '--replay', reference, '--out', out, '--json', ...extra];
  const comparable = (results: ResultsFile) => results.trials.map((t) => [t.task, t.trial, t.status, t.score, t.items]);

  it('refuses an unknown suite, naming the known ones, and writes nothing', () => {
    const out = join(dir.path, 'unknown-suite');
    const run = spawnSync(process.execPath, [join(hostDir, 'bin', 'cowork.js'), 'bench', 'run', 'nope', '--replay', reference, '--out', out], { encoding: 'utf8' });
    expect([run.status, run.stderr]).toEqual([2, expect.stringMatching(/^error invalid_input: no suite "nope"; known suites: runtime/)]);
    expect(existsSync(out)).toBe(false);
  });

  it('resumes with --resume and ends with the results of an uninterrupted run', async () => {
    const whole = join(dir.path, 'whole');
    expect(spawnSync(process.execPath, bench(whole), { encoding: 'utf8' }).status).toBe(0);

    const killed = join(dir.path, 'killed');
    const child = spawn(process.execPath, bench(killed), { stdio: 'ignore' });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    for (let i = 0; i < 600; i++) {
      const path = join(killed, 'results.json');
      if (existsSync(path) && (JSON.parse(readFileSync(path, 'utf8')) as ResultsFile).trials.length >= 3) break;
      await delay(50);
    }
    child.kill('SIGKILL');
    await exited;
    const partial = JSON.parse(readFileSync(join(killed, 'results.json'), 'utf8')) as ResultsFile;
    expect(partial.trials.length).toBeGreaterThanOrEqual(3);
    expect(partial.trials.length).toBeLessThan(8);

    const resumed = spawnSync(process.execPath, bench(killed, '--resume'), { encoding: 'utf8' });
    expect(resumed.status).toBe(0);
    const final = JSON.parse(readFileSync(join(killed, 'results.json'), 'utf8')) as ResultsFile;
    expect(comparable(final)).toEqual(comparable(JSON.parse(readFileSync(join(whole, 'results.json'), 'utf8')) as ResultsFile));
    expect(existsSync(join(killed, 'workspaces'))).toBe(false);
  }, 300_000);
});
