/**
 * Invariant: every file state an agent produced in `work/` can be found again. After each turn
 * that changed files the runtime commits a snapshot with the agent as author; a change made between
 * turns by anyone else is committed as theirs and told to the agent; a restore brings a turn's
 * bytes back as a new commit. Bad input (a path outside work/, a turn with no snapshot, a path that
 * did not exist then) is refused with a clear code and nothing is written. Large or binary files
 * stay out of git, listed with their hash; another repository inside work/ is left out whole. A
 * file changed in the last RACY_MS is told apart by its bytes, not its stat, before a turn skips git.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { taskPaths } from '../../src/agents/task-files';
import { LARGE_MANIFEST, WorkHistory, workSignature } from '../../src/agents/work-history';
import { RACY_MS } from '../../src/util/file-memo';
import { reply } from '../../src/testkit/scripted-model-server';
import { caught, tempDir } from '../support/temp-host';
import { filesProbe } from '../support/task-work';
import { caller, startRuntime, texts, type RuntimeHarness } from './runtime-harness';

let h: RuntimeHarness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});


/** Main writes one file per turn (`writes`), then replies "done" (the task waits for the person). */
function mainWrites(writes: [string, string][]) {
  return (body: Parameters<typeof caller>[0]) => {
    if (caller(body) !== 'main') return reply.text('?');
    const answered = body.messages.filter((m) => m.role === 'tool').length;
    if (answered < writes.length) {
      const [path, text] = writes[answered]!;
      return reply.toolCalls([{ id: `w${answered}`, name: 'write_file', arguments: { path, text } }]);
    }
    return reply.text('done');
  };
}

const git = (work: string, ...args: string[]): string => execFileSync('git', args, { cwd: work, encoding: 'utf8' });

it('five turns that edit files leave five snapshots by the agent; restoring turn 2 brings its bytes back as a new commit', async () => {
  h = await startRuntime(
    mainWrites([
      ['a.txt', 'one'],
      ['a.txt', 'two'],
      ['notes/b.md', '# b'],
      ['a.txt', 'three'],
      ['notes/b.md', '# b, again'],
    ]),
    { plugins: [filesProbe] },
  );
  const taskId = await h.runtime.startTask('write some files');
  expect(await h.runtime.runTask(taskId)).toMatchObject({ status: 'waiting', reason: 'awaiting_user' });
  const work = taskPaths(h.host.workspaceDir, taskId).work;

  const turns = (await h.host.workHistory.log(taskId)).filter((s) => s.kind === 'turn').reverse();
  expect(turns).toHaveLength(5);
  for (const s of turns) {
    expect(s).toMatchObject({ author: 'agent:main', email: 'agent-main@cowork', agentId: 'main' });
    expect(s.message).toBe(`turn ${s.turn}: write_file`);
  }
  expect(turns.map((s) => s.files)).toEqual([['a.txt'], ['a.txt'], ['notes/b.md'], ['a.txt'], ['notes/b.md']]);
  expect(git(work, 'log', '--format=%an').trim().split('\n')).toEqual([...Array(5).fill('agent:main'), 'cowork']);

  const second = turns[1]!.turn!;
  const diff = await h.host.workHistory.diff(taskId, second);
  expect(diff.patch).toContain('-one');
  expect(diff.patch).toContain('+two');

  const restored = await h.host.workHistory.restore(taskId, 'a.txt', second, 'human:ann');
  expect(readFileSync(join(work, 'a.txt'), 'utf8')).toBe('two');
  const log = await h.host.workHistory.log(taskId);
  expect(log[0]).toMatchObject({ commit: restored.commit, kind: 'restore', author: 'human:ann', message: `restore a.txt from turn ${second}`, files: ['a.txt'] });
  expect(log).toHaveLength(7);
  const listed = await h.host.workHistory.files(taskId);
  expect(listed.map((f) => [f.path, f.author])).toEqual([
    ['a.txt', 'human:ann'],
    ['notes/b.md', 'agent:main'],
  ]);

  // A person's edit not yet in history is committed as others' before a restore overwrites it.
  writeFileSync(join(work, 'a.txt'), 'edited by hand');
  writeFileSync(join(work, 'notes', 'b.md'), '# b, by hand');
  const again = await h.host.workHistory.restore(taskId, 'a.txt', turns[0]!.turn!, 'human:ann');
  expect(readFileSync(join(work, 'a.txt'), 'utf8')).toBe('one');
  const [restore, others] = await h.host.workHistory.log(taskId);
  expect(restore).toMatchObject({ commit: again.commit, kind: 'restore', files: ['a.txt'] });
  expect(others).toMatchObject({ kind: 'others', author: 'others', files: ['a.txt', 'notes/b.md'] });
  expect(git(work, 'show', `${others!.commit}:a.txt`)).toBe('edited by hand');

  // Restoring what is already there commits nothing, and says so.
  const same = await h.host.workHistory.restore(taskId, 'a.txt', turns[0]!.turn!, 'human:ann');
  expect(same).toEqual({ commit: again.commit, files: [], path: 'a.txt', turn: turns[0]!.turn! });
  expect(await h.host.workHistory.log(taskId)).toHaveLength(9);
});

it("a person's edit between turns is committed as others' and shown to the agent at its next turn", async () => {
  h = await startRuntime(mainWrites([['a.txt', 'agent text']]), { plugins: [filesProbe] });
  const taskId = await h.runtime.startTask('write a file');
  await h.runtime.runTask(taskId);
  const work = taskPaths(h.host.workspaceDir, taskId).work;

  writeFileSync(join(work, 'a.txt'), 'a person changed this');
  writeFileSync(join(work, 'person.md'), 'new');
  await h.runtime.postUserMessage(taskId, 'I edited some files', undefined, 'human:ann');
  await h.runtime.runTask(taskId);

  const log = await h.host.workHistory.log(taskId);
  expect(log[0]).toMatchObject({ kind: 'others', author: 'others', files: ['a.txt', 'person.md'] });
  const last = h.server.requests[h.server.requests.length - 1]!;
  expect(texts(last)).toContain('[runtime] changed by others since your last turn (in work/): a.txt, person.md');
  // Nothing changed before the first turn: no note there.
  expect(h.server.requests.filter((r) => texts(r).some((t) => t.includes('changed by others')))).toHaveLength(1);
});

it('refuses a turn with no snapshot, a path outside work/ and a path absent at that turn, writing nothing', async () => {
  h = await startRuntime(mainWrites([['a.txt', 'one']]), { plugins: [filesProbe] });
  const taskId = await h.runtime.startTask('write a file');
  await h.runtime.runTask(taskId);
  const work = taskPaths(h.host.workspaceDir, taskId).work;
  const turn = (await h.host.workHistory.log(taskId)).find((s) => s.kind === 'turn')!.turn!;
  writeFileSync(join(work, 'a.txt'), 'current');
  const before = await h.host.workHistory.log(taskId);

  expect((await caught(() => h!.host.workHistory.restore(taskId, 'a.txt', 99, 'human:ann'))).code).toBe('not_found');
  expect((await caught(() => h!.host.workHistory.diff(taskId, 99))).code).toBe('not_found');
  expect((await caught(() => h!.host.workHistory.restore(taskId, '../../memory.md', turn, 'human:ann'))).code).toBe('invalid_input');
  expect((await caught(() => h!.host.workHistory.restore(taskId, '/etc/passwd', turn, 'human:ann'))).code).toBe('invalid_input');
  expect((await caught(() => h!.host.workHistory.restore(taskId, '.git/config', turn, 'human:ann'))).code).toBe('invalid_input');
  expect((await caught(() => h!.host.workHistory.restore(taskId, 'never.txt', turn, 'human:ann'))).code).toBe('not_found');

  expect(readFileSync(join(work, 'a.txt'), 'utf8')).toBe('current');
  expect(await h.host.workHistory.log(taskId)).toEqual(before);
});

it('keeps large and binary files out of git, listed with their hash, and leaves a nested repository alone', async () => {
  const dir = tempDir();
  try {
    const history = new WorkHistory({ workspaceDir: dir.path, maxFileBytes: 1000 });
    const work = taskPaths(dir.path, 't1').work;
    await history.init('t1');
    writeFileSync(join(work, 'small.txt'), 'hello');
    writeFileSync(join(work, 'big.txt'), 'x'.repeat(2000));
    writeFileSync(join(work, 'image.bin'), Buffer.from([1, 0, 2, 3]));
    mkdirSync(join(work, 'vendor', 'lib'), { recursive: true });
    execFileSync('git', ['init', '-q'], { cwd: join(work, 'vendor', 'lib') });
    writeFileSync(join(work, 'vendor', 'lib', 'x.c'), 'int x;');

    const first = await history.snapshot('t1', 'agent:main', 'turn 1: write', { 'Cowork-Kind': 'turn', 'Cowork-Agent': 'main', 'Cowork-Turn': '1' });
    expect(first?.files).toEqual(['big.txt', 'image.bin', 'small.txt']);
    expect(git(work, 'ls-files').trim().split('\n').sort()).toEqual([LARGE_MANIFEST, 'small.txt']);
    const manifest = JSON.parse(readFileSync(join(work, LARGE_MANIFEST), 'utf8'));
    expect(manifest).toEqual([
      { path: 'big.txt', size: 2000, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
      { path: 'image.bin', size: 4, sha256: createHash('sha256').update(Buffer.from([1, 0, 2, 3])).digest('hex') },
    ]);
    // Nothing changed: no commit. A large file changing is seen through the manifest.
    expect(await history.snapshot('t1', 'agent:main', 'turn 2', {})).toBeNull();
    writeFileSync(join(work, 'big.txt'), 'y'.repeat(3000));
    const third = await history.snapshot('t1', 'agent:main', 'turn 3', {});
    expect(third?.files).toEqual(['big.txt']);
    expect(JSON.parse(readFileSync(join(work, LARGE_MANIFEST), 'utf8'))[0]).toMatchObject({ path: 'big.txt', size: 3000 });
    // Shrunk below the rule: back into git, out of the manifest.
    writeFileSync(join(work, 'big.txt'), 'small now');
    await history.snapshot('t1', 'agent:main', 'turn 4', {});
    expect(git(work, 'ls-files').trim().split('\n').sort()).toEqual([LARGE_MANIFEST, 'big.txt', 'small.txt']);
    expect(JSON.parse(readFileSync(join(work, LARGE_MANIFEST), 'utf8')).map((l: { path: string }) => l.path)).toEqual(['image.bin']);
  } finally {
    dir.cleanup();
  }
});

it('signs a file changed too recently for its stat to tell by its bytes, and a large one not at all', () => {
  const dir = tempDir();
  try {
    mkdirSync(join(dir.path, 'notes'));
    const file = join(dir.path, 'notes', 'a.txt');
    writeFileSync(file, '1');
    const now = Math.max(statSync(file).ctimeMs, statSync(file).mtimeMs);
    // Within the window it is signed by its bytes as well: the same while nothing changes (a turn
    // that touched nothing still skips git), but not what its stat alone would sign.
    const racy = workSignature(dir.path, now);
    expect(racy).toMatch(/^[0-9a-f]{40}$/);
    expect(workSignature(dir.path, now)).toBe(racy);
    expect(workSignature(dir.path, now + RACY_MS + 1000)).not.toBe(racy);
    // Past the racy window the stat alone signs it, and stays the same while nothing changes.
    const later = now + RACY_MS + 1000;
    const settled = workSignature(dir.path, later);
    expect(settled).toMatch(/^[0-9a-f]{40}$/);
    expect(workSignature(dir.path, later)).toBe(settled);
    writeFileSync(join(dir.path, 'notes', 'b.txt'), '2');
    expect(workSignature(dir.path, later + RACY_MS)).not.toBe(settled);
    // A recent file too large to read every turn leaves the folder unsigned: git is asked.
    writeFileSync(join(dir.path, 'big.bin'), Buffer.alloc(2 * 1024 * 1024));
    expect(workSignature(dir.path)).toBeUndefined();
  } finally {
    dir.cleanup();
  }
});
