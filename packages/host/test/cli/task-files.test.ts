/**
 * Invariant: `cowork task TASK files` and `cowork task TASK runs` show what the runtime recorded,
 * in text and with --json. After Main's turns wrote files (the real runtime, a scripted model),
 * `files` lists them and the snapshots, `--diff N` shows turn N's patch, and `--restore PATH --turn
 * N` brings the file's bytes back as a new commit by the person at the terminal (or --operator).
 * After sandboxed jobs wrote metrics (the real Runs service), `runs` lists the task's runs newest
 * first with their key metrics and `runs RUN` shows one with all of them. Bad input is exit 2
 * (invalid_input) and writes nothing: a path outside work/, a bad turn or operator, options that
 * do not fit; an unknown task, turn or run is exit 4 (not_found).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunView } from '../../src/cli/commands/tasks';
import { taskPaths } from '../../src/agents/task-files';
import type { Snapshot, WorkFile } from '../../src/agents/work-history';
import { Host } from '../../src/host';
import type { RunRecord } from '../../src/store/run-records';
import { filesProbe, finishedRun, recordTask, runWritingTask } from '../support/task-work';
import { jsonOf, tempDir, workspaceCli, type ErrorJson } from './cli-harness';

const dir = tempDir('cowork-task-files-');
const workspace = join(dir.path, 'ws');
const cli = workspaceCli(workspace);
let taskId = '';
let work = '';
/** Main's turns that wrote a.txt "one", a.txt "two", notes/b.md, oldest first. */
let turns: Snapshot[] = [];
const runsTask = 'task_cli_runs';
let baseline: RunRecord;
let tuned: RunRecord;

beforeAll(async () => {
  const host = await Host.open({ workspaceDir: workspace, plugins: [filesProbe] });
  try {
    taskId = await runWritingTask(host, [
      ['a.txt', 'one'],
      ['a.txt', 'two'],
      ['notes/b.md', '# b'],
    ]);
    turns = (await host.workHistory.log(taskId)).filter((s) => s.kind === 'turn').reverse();
    await recordTask(host, runsTask);
    baseline = await finishedRun(host, runsTask, {
      name: 'baseline',
      cwd: 'baseline',
      params: { lr: 0.1 },
      script: ['printf \'{"step":1,"loss":0.5,"acc":0.7}\\n{"step":2,"loss":0.25}\\n\' >> metrics.jsonl', 'printf \'oops\\n\' >> metrics.jsonl'].join('; '),
    });
    tuned = await finishedRun(host, runsTask, { name: 'tuned', cwd: 'tuned', params: { lr: 0.01 }, goal: { metric: 'acc', direction: 'max' }, script: 'echo "METRIC acc=0.9 loss=0.2 step=3"' });
  } finally {
    await host.close();
  }
  work = taskPaths(workspace, taskId).work;
}, 60_000);
afterAll(() => dir.cleanup());

/** The snapshots, newest first, as `files --json` shows them. */
async function snapshots(): Promise<Snapshot[]> {
  return (await cli.json<{ snapshots: Snapshot[] }>('task', taskId, 'files')).snapshots;
}

async function refused(args: string[], code: string, exit: number): Promise<ErrorJson> {
  const run = await cli.run(...args, '--json');
  const error = jsonOf<ErrorJson>(run);
  expect({ args, exit: run.code, code: error.error.code }).toEqual({ args, exit, code });
  return error;
}

describe('cowork task TASK files', () => {
  it('lists the files of work/ and the snapshots, with --json and as text', async () => {
    const shown = await cli.json<{ taskId: string; files: WorkFile[]; snapshots: Snapshot[] }>('task', taskId, 'files');
    expect(shown.taskId).toBe(taskId);
    expect(shown.files.map((f) => [f.path, f.commit, f.author, f.turn])).toEqual([
      ['a.txt', turns[1]!.commit, 'agent:main', turns[1]!.turn],
      ['notes/b.md', turns[2]!.commit, 'agent:main', turns[2]!.turn],
    ]);
    expect(shown.snapshots.filter((s) => s.kind === 'turn').map((s) => s.commit)).toEqual([...turns].reverse().map((s) => s.commit));
    expect(shown.snapshots[shown.snapshots.length - 1]).toMatchObject({ kind: 'init' });

    const text = await cli.run('task', taskId, 'files');
    expect(text.code).toBe(0);
    const lines = text.stdout.split('\n');
    expect(lines[0]).toBe('files:');
    expect(lines).toContain(`  a.txt  ${turns[1]!.commit.slice(0, 12)}  agent:main  turn ${turns[1]!.turn}`);
    expect(lines).toContain('snapshots (newest first):');
    expect(lines.some((l) => l.startsWith(`  ${turns[2]!.commit.slice(0, 12)}`) && l.endsWith(`turn ${turns[2]!.turn}: write_file  [notes/b.md]`))).toBe(true);
  });

  it("--diff N shows turn N's snapshot and patch", async () => {
    const second = turns[1]!;
    const diff = await cli.json<Snapshot & { taskId: string; patch: string }>('task', taskId, 'files', '--diff', String(second.turn));
    expect(diff).toMatchObject({ taskId, commit: second.commit, turn: second.turn, files: ['a.txt'] });
    expect(diff.patch).toContain('-one');
    expect(diff.patch).toContain('+two');
    const text = await cli.run('task', taskId, 'files', '--diff', String(second.turn), '--agent', 'main');
    expect(text.code).toBe(0);
    expect(text.stdout.split('\n')[0]).toBe(`${second.commit.slice(0, 12)}  agent:main  ${second.at}  ${second.message}`);
    expect(text.stdout).toContain('+two');
  });

  it('--restore PATH --turn N brings the bytes back as a new commit by the person at the terminal, or --operator', async () => {
    const before = (await snapshots()).length;
    const first = turns[0]!;
    const restored = await cli.json<{ taskId: string; commit: string; path: string; turn: number; files: string[] }>('task', taskId, 'files', '--restore', 'a.txt', '--turn', String(first.turn));
    expect(restored).toMatchObject({ taskId, path: 'a.txt', turn: first.turn, files: ['a.txt'] });
    expect(readFileSync(join(work, 'a.txt'), 'utf8')).toBe('one');
    let log = await snapshots();
    expect(log).toHaveLength(before + 1);
    expect(log[0]).toMatchObject({ commit: restored.commit, kind: 'restore', author: 'human:tester', turn: first.turn, files: ['a.txt'] });

    const text = await cli.run('task', taskId, 'files', '--restore', 'a.txt', '--turn', String(turns[1]!.turn), '--operator', 'human:ann');
    expect(text.code).toBe(0);
    log = await snapshots();
    expect(text.stdout).toBe(`restored work/a.txt from turn ${turns[1]!.turn} as commit ${log[0]!.commit.slice(0, 12)}\n`);
    expect(log[0]).toMatchObject({ kind: 'restore', author: 'human:ann', files: ['a.txt'] });
    expect(readFileSync(join(work, 'a.txt'), 'utf8')).toBe('two');
  });

  it('refuses bad input with exit 2 and an unknown task, turn or file with exit 4, writing nothing', async () => {
    const before = (await snapshots()).length;
    const text = readFileSync(join(work, 'a.txt'), 'utf8');
    const turn = String(turns[0]!.turn);
    for (const path of ['../x', '../memory.md', '/etc/passwd', join(work, '..', 'x'), '.git/config']) {
      const error = await refused(['task', taskId, 'files', '--restore', path, '--turn', turn], 'invalid_input', 2);
      expect(error.error.field).toBe('path');
    }
    await refused(['task', taskId, 'files', '--restore', 'a.txt', '--turn', '999'], 'not_found', 4);
    await refused(['task', taskId, 'files', '--restore', 'notes/b.md', '--turn', turn], 'not_found', 4);
    await refused(['task', taskId, 'files', '--diff', '999'], 'not_found', 4);
    await refused(['task', taskId, 'files', '--diff', turn, '--agent', 'alpha'], 'not_found', 4);
    await refused(['task', taskId, 'files', '--restore', 'a.txt', '--turn', 'x'], 'invalid_input', 2);
    await refused(['task', taskId, 'files', '--restore', 'a.txt', '--turn', '0'], 'invalid_input', 2);
    await refused(['task', taskId, 'files', '--restore', 'a.txt'], 'invalid_input', 2);
    await refused(['task', taskId, 'files', '--restore', 'a.txt', '--turn', turn, '--operator', 'nobody'], 'invalid_input', 2);
    await refused(['task', taskId, 'files', '--diff', turn, '--restore', 'a.txt', '--turn', turn], 'invalid_input', 2);
    await refused(['task', taskId, 'files', '--turn', turn], 'invalid_input', 2);
    await refused(['task', taskId, 'files', '--diff', 'two'], 'invalid_input', 2);
    await refused(['task', taskId, '--diff', turn], 'invalid_input', 2);
    await refused(['task', taskId, 'filez'], 'invalid_input', 2);
    for (const args of [['files'], ['files', '--diff', '1'], ['files', '--restore', 'a.txt', '--turn', '1']]) await refused(['task', 'task_nope', ...args], 'not_found', 4);
    expect((await snapshots()).length).toBe(before);
    expect(readFileSync(join(work, 'a.txt'), 'utf8')).toBe(text);
  });
});

describe('cowork task TASK runs', () => {
  it('lists the runs newest first with their key metrics, with --json and as text', async () => {
    const listed = await cli.json<{ taskId: string; runs: RunView[] }>('task', runsTask, 'runs');
    expect(listed.taskId).toBe(runsTask);
    expect(listed.runs.map((r) => [r.id, r.name, r.status])).toEqual([
      [tuned.id, 'tuned', 'succeeded'],
      [baseline.id, 'baseline', 'succeeded'],
    ]);
    expect(listed.runs[1]).toMatchObject({ params: { lr: 0.1 }, problemCount: 1, metrics: { loss: { last: 0.25, best: 0.25, count: 2 }, acc: { last: 0.7, count: 1 } } });

    const text = await cli.run('task', runsTask, 'runs');
    expect(text.code).toBe(0);
    expect(text.stdout.split('\n')).toEqual([
      // The goal's metric first.
      `${tuned.id}  "tuned"  succeeded  started ${tuned.startedAt}  acc 0.9 (best 0.9), loss 0.2 (best 0.2)`,
      `${baseline.id}  "baseline"  succeeded  started ${baseline.startedAt}  acc 0.7 (best 0.7), loss 0.25 (best 0.25)`,
      '',
    ]);
    expect((await cli.run('task', taskId, 'runs')).stdout).toBe('no runs\n');
  });

  it('shows one run with all its metrics, params, jobs and bad lines', async () => {
    const run = await cli.json<RunView>('task', runsTask, 'runs', baseline.id);
    expect(run).toMatchObject({ id: baseline.id, taskId: runsTask, name: 'baseline', jobIds: [baseline.sources[0]!.jobId], metrics: { loss: { last: 0.25, lastStep: 2, best: 0.25, bestStep: 2, direction: 'min', count: 2 } } });
    const text = (await cli.run('task', runsTask, 'runs', baseline.id)).stdout.split('\n');
    expect(text).toEqual(
      expect.arrayContaining([
        `${baseline.id}  "baseline"  succeeded`,
        `jobs: ${baseline.sources[0]!.jobId}`,
        'params: {"lr":0.1}',
        'metrics:',
        '  acc  last 0.7 @1  best 0.7 @1  (max, 1 point)',
        '  loss  last 0.25 @2  best 0.25 @2  (min, 2 points)',
        'bad metrics lines: 1',
      ]),
    );
    expect(text.some((l) => l.startsWith('  metrics.jsonl line 3 ('))).toBe(true);
    const tunedText = (await cli.run('task', runsTask, 'runs', tuned.id)).stdout.split('\n');
    expect(tunedText).toContain('goal: acc (max)');
    expect(tunedText).toContain('  acc  last 0.9 @3  best 0.9 @3  (max, 1 point)');
  });

  it('an unknown task or run is exit 4; extra words or file options are exit 2', async () => {
    await refused(['task', runsTask, 'runs', 'run_nope'], 'not_found', 4);
    await refused(['task', 'task_nope', 'runs'], 'not_found', 4);
    await refused(['task', 'task_nope', 'runs', baseline.id], 'not_found', 4);
    // A run of another task is not this task's.
    await refused(['task', taskId, 'runs', baseline.id], 'not_found', 4);
    await refused(['task', runsTask, 'runs', baseline.id, 'extra'], 'invalid_input', 2);
    await refused(['task', runsTask, 'runs', '--diff', '1'], 'invalid_input', 2);
  });

  it('the help names both', async () => {
    const help = await cli.run('task', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('files | runs [RUN]');
    expect(help.stdout).toContain('`cowork task TASK runs` lists its runs');
  });
});
