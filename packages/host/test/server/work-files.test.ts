/**
 * Invariant: a task's work/ history is served over HTTP as the runtime recorded it. After Main's
 * turns wrote files (the real runtime, a scripted model), GET /files lists them with the commit and
 * turn that last changed each, /files/log the snapshots newest first, /files/diff?turn=N that
 * turn's patch; POST /files/restore brings a file's bytes back as they were after turn N, as a new
 * commit by the credential's person. Bad input is refused with the registry's codes and writes
 * nothing: a path outside work/ (`../x`, absolute) is 400 invalid_input, a turn with no snapshot or
 * an unknown task 404 not_found, a bad turn 400, and a viewer's restore 403 forbidden.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { taskPaths } from '../../src/agents/task-files';
import type { Snapshot, WorkFile } from '../../src/agents/work-history';
import { filesProbe, runWritingTask } from '../support/task-work';
import { body, errorCode, startTestServer, type TestServer } from './harness';

let t: TestServer;
let taskId = '';
let work = '';
/** Main's turns that wrote a.txt "one", a.txt "two", notes/b.md "# b", notes/b.md "# b, again", oldest first. */
let turns: Snapshot[] = [];
let viewer = '';
let editor = '';

beforeAll(async () => {
  t = await startTestServer({}, { plugins: [filesProbe] });
  taskId = await runWritingTask(t.host, [
    ['a.txt', 'one'],
    ['a.txt', 'two'],
    ['notes/b.md', '# b'],
    ['notes/b.md', '# b, again'],
  ]);
  work = taskPaths(t.host.workspaceDir, taskId).work;
  turns = (await t.host.workHistory.log(taskId)).filter((s) => s.kind === 'turn').reverse();
  const person = async (name: string, role: string): Promise<string> => {
    const added = await t.request({ method: 'POST', url: '/api/users', payload: { name, role } });
    expect(added.statusCode).toBe(201);
    return body<{ token: string }>(added).token;
  };
  viewer = await person('vic', 'viewer');
  editor = await person('ann', 'editor');
}, 30_000);
afterAll(() => t?.dispose());

const get = (url: string, headers?: Record<string, string>): ReturnType<TestServer['request']> => t.request({ method: 'GET', url, headers });
const restore = (payload: unknown, headers?: Record<string, string>): ReturnType<TestServer['request']> =>
  t.request({ method: 'POST', url: `/api/tasks/${taskId}/files/restore`, payload: payload as Record<string, unknown>, headers });
const logLength = async (): Promise<number> => (await t.host.workHistory.log(taskId)).length;

it("the runtime's turns left one snapshot each, by Main", () => {
  expect(turns.map((s) => [s.author, s.files])).toEqual([
    ['agent:main', ['a.txt']],
    ['agent:main', ['a.txt']],
    ['agent:main', ['notes/b.md']],
    ['agent:main', ['notes/b.md']],
  ]);
});

it('GET /files lists the files of work/ with the commit and turn that last changed each', async () => {
  const res = await get(`/api/tasks/${taskId}/files`);
  expect(res.statusCode).toBe(200);
  const { files } = body<{ files: WorkFile[] }>(res);
  expect(files.map((f) => [f.path, f.commit, f.author, f.turn])).toEqual([
    ['a.txt', turns[1]!.commit, 'agent:main', turns[1]!.turn],
    ['notes/b.md', turns[3]!.commit, 'agent:main', turns[3]!.turn],
  ]);
});

it('GET /files/log answers the snapshots newest first, down to the initial commit', async () => {
  const res = await get(`/api/tasks/${taskId}/files/log`);
  expect(res.statusCode).toBe(200);
  const { snapshots } = body<{ snapshots: Snapshot[] }>(res);
  expect(snapshots.filter((s) => s.kind === 'turn').map((s) => s.commit)).toEqual([...turns].reverse().map((s) => s.commit));
  expect(snapshots[snapshots.length - 1]).toMatchObject({ kind: 'init', author: 'cowork', files: [] });
  expect(snapshots[0]).toMatchObject({ kind: 'turn', agentId: 'main', turn: turns[3]!.turn, message: `turn ${turns[3]!.turn}: write_file` });
});

it("GET /files/diff?turn=N answers that turn's snapshot and patch (Main's by default, or the agent named)", async () => {
  const second = turns[1]!;
  const res = await get(`/api/tasks/${taskId}/files/diff?turn=${second.turn}`);
  expect(res.statusCode).toBe(200);
  const diff = body<Snapshot & { patch: string }>(res);
  expect(diff).toMatchObject({ commit: second.commit, kind: 'turn', turn: second.turn, files: ['a.txt'] });
  expect(diff.patch).toContain('-one');
  expect(diff.patch).toContain('+two');
  expect((await get(`/api/tasks/${taskId}/files/diff?turn=${second.turn}&agent=main`)).statusCode).toBe(200);
  // No subagent of that name took a turn.
  const other = await get(`/api/tasks/${taskId}/files/diff?turn=${second.turn}&agent=alpha`);
  expect([other.statusCode, errorCode(other)]).toEqual([404, 'not_found']);
});

it('POST /files/restore brings the bytes of turn N back as a new commit by the person', async () => {
  const first = turns[0]!;
  const before = await logLength();
  const res = await restore({ path: 'a.txt', turn: first.turn });
  expect(res.statusCode).toBe(201);
  const restored = body<{ commit: string; files: string[]; path: string; turn: number }>(res);
  expect(restored).toMatchObject({ files: ['a.txt'], path: 'a.txt', turn: first.turn });
  expect(readFileSync(join(work, 'a.txt'), 'utf8')).toBe('one');
  const { snapshots } = body<{ snapshots: Snapshot[] }>(await get(`/api/tasks/${taskId}/files/log`));
  expect(snapshots).toHaveLength(before + 1);
  // The owner's token acts as the server's default operator.
  expect(snapshots[0]).toMatchObject({ commit: restored.commit, kind: 'restore', author: 'human:user', turn: first.turn, files: ['a.txt'], message: `restore a.txt from turn ${first.turn}` });
  const { files } = body<{ files: WorkFile[] }>(await get(`/api/tasks/${taskId}/files`));
  expect(files.find((f) => f.path === 'a.txt')).toMatchObject({ commit: restored.commit });
  // A file in a subfolder comes back too; an editor's restore is theirs.
  const third = turns[2]!;
  const byAnn = await restore({ path: 'notes/b.md', turn: third.turn }, { authorization: `Bearer ${editor}` });
  expect(byAnn.statusCode).toBe(201);
  expect(readFileSync(join(work, 'notes/b.md'), 'utf8')).toBe('# b');
  expect((await t.host.workHistory.log(taskId))[0]).toMatchObject({ commit: body<{ commit: string }>(byAnn).commit, kind: 'restore', author: 'human:ann', files: ['notes/b.md'] });
});

it('refuses a path outside work/ (../x, absolute, its .git) with 400 invalid_input and writes nothing', async () => {
  const before = await logLength();
  const text = readFileSync(join(work, 'a.txt'), 'utf8');
  for (const path of ['../x', '../memory.md', '/etc/passwd', join(work, '..', 'x'), 'notes/../../x', '.git/config']) {
    const res = await restore({ path, turn: turns[0]!.turn });
    expect({ path, status: res.statusCode, code: errorCode(res) }).toEqual({ path, status: 400, code: 'invalid_input' });
  }
  expect(await logLength()).toBe(before);
  expect(readFileSync(join(work, 'a.txt'), 'utf8')).toBe(text);
});

it('refuses a turn with no snapshot, a file that did not exist then, and bad turns; writes nothing', async () => {
  const before = await logLength();
  const missing = await restore({ path: 'a.txt', turn: 999 });
  expect([missing.statusCode, errorCode(missing)]).toEqual([404, 'not_found']);
  // notes/b.md was written at the third turn, not yet after the first.
  const notYet = await restore({ path: 'notes/b.md', turn: turns[0]!.turn });
  expect([notYet.statusCode, errorCode(notYet)]).toEqual([404, 'not_found']);
  const noDiff = await get(`/api/tasks/${taskId}/files/diff?turn=999`);
  expect([noDiff.statusCode, errorCode(noDiff)]).toEqual([404, 'not_found']);
  for (const payload of [{ path: 'a.txt', turn: 0 }, { path: 'a.txt', turn: 'two' }, { path: 'a.txt' }, { turn: 1 }, { path: '', turn: 1 }, { path: 'a.txt', turn: 1, extra: true }]) {
    const res = await restore(payload);
    expect({ payload, status: res.statusCode, code: errorCode(res) }).toEqual({ payload, status: 400, code: 'invalid_input' });
  }
  for (const query of ['', '?turn=0', '?turn=x', '?turn=1.5', '?turn=1&nope=1']) {
    const res = await get(`/api/tasks/${taskId}/files/diff${query}`);
    expect({ query, status: res.statusCode, code: errorCode(res) }).toEqual({ query, status: 400, code: 'invalid_input' });
  }
  expect(await logLength()).toBe(before);
});

it('answers 404 not_found for an unknown task on every route, and makes no folder for it', async () => {
  for (const url of ['/api/tasks/task_nope/files', '/api/tasks/task_nope/files/log', '/api/tasks/task_nope/files/diff?turn=1']) {
    const res = await get(url);
    expect({ url, status: res.statusCode, code: errorCode(res) }).toEqual({ url, status: 404, code: 'not_found' });
  }
  const res = await t.request({ method: 'POST', url: '/api/tasks/task_nope/files/restore', payload: { path: 'a.txt', turn: 1 } });
  expect([res.statusCode, errorCode(res)]).toEqual([404, 'not_found']);
  expect(() => readFileSync(join(taskPaths(t.host.workspaceDir, 'task_nope').work, '.git', 'HEAD'))).toThrow();
});

it("a viewer reads the files, log and diffs but its restore is 403 forbidden and writes nothing", async () => {
  const as = { authorization: `Bearer ${viewer}` };
  expect((await get(`/api/tasks/${taskId}/files`, as)).statusCode).toBe(200);
  expect((await get(`/api/tasks/${taskId}/files/log`, as)).statusCode).toBe(200);
  expect((await get(`/api/tasks/${taskId}/files/diff?turn=${turns[1]!.turn}`, as)).statusCode).toBe(200);
  const before = await logLength();
  const text = readFileSync(join(work, 'a.txt'), 'utf8');
  const res = await restore({ path: 'a.txt', turn: turns[1]!.turn }, as);
  expect([res.statusCode, errorCode(res)]).toEqual([403, 'forbidden']);
  // Naming someone else does not help either.
  const named = await restore({ path: 'a.txt', turn: turns[1]!.turn, operator: 'human:owner' }, as);
  expect([named.statusCode, errorCode(named)]).toEqual([403, 'forbidden']);
  expect(await logLength()).toBe(before);
  expect(readFileSync(join(work, 'a.txt'), 'utf8')).toBe(text);
  expect(t.errors).toEqual([]);
});
