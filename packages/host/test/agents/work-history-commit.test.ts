/**
 * Invariant: a snapshot answers the full id of the commit it made (HEAD, as git itself names it),
 * whether the branch's ref is a loose file or packed; and when git finds nothing to stage although a
 * change was seen, a snapshot answers null and makes no commit.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { taskPaths } from '../../src/agents/task-files';
import { LARGE_MANIFEST, WorkHistory } from '../../src/agents/work-history';
import { tempDir } from '../support/temp-host';

const git = (work: string, ...args: string[]): string => execFileSync('git', args, { cwd: work, encoding: 'utf8' }).trim();
const turn = (n: number): Record<string, string> => ({ 'Cowork-Kind': 'turn', 'Cowork-Agent': 'main', 'Cowork-Turn': String(n) });

it("answers the commit it made, by its full id, with the loose ref or a packed one", async () => {
  const dir = tempDir();
  try {
    const history = new WorkHistory({ workspaceDir: dir.path });
    const work = taskPaths(dir.path, 't1').work;
    await history.init('t1');
    const init = git(work, 'rev-parse', 'HEAD');

    writeFileSync(join(work, 'a.txt'), 'one');
    const first = await history.snapshot('t1', 'agent:main', 'turn 1: write', turn(1));
    expect(first).toEqual({ commit: git(work, 'rev-parse', 'HEAD'), files: ['a.txt'] });
    expect(first!.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(git(work, 'rev-parse', `${first!.commit}^`)).toBe(init);
    expect(git(work, 'log', '-1', '--format=%an <%ae>|%s')).toBe('agent:main <agent-main@cowork>|turn 1: write');

    // The branch's ref packed (no loose file): the same answer.
    git(work, 'pack-refs', '--all');
    expect(existsSync(join(work, '.git', 'refs', 'heads', 'main'))).toBe(false);
    writeFileSync(join(work, 'a.txt'), 'two');
    const second = await history.snapshot('t1', 'others', 'changes by others', turn(2));
    expect(second).toEqual({ commit: git(work, 'rev-parse', 'HEAD'), files: ['a.txt'] });
    expect(git(work, 'rev-parse', `${second!.commit}^`)).toBe(first!.commit);
    expect(git(work, 'log', '-1', '--format=%an <%ae>')).toBe('others <others@cowork>');
    expect(git(work, 'rev-list', '--count', 'HEAD')).toBe('3');
  } finally {
    dir.cleanup();
  }
});

it('answers null and commits nothing when git finds nothing to stage', async () => {
  const dir = tempDir();
  try {
    const history = new WorkHistory({ workspaceDir: dir.path });
    const work = taskPaths(dir.path, 't1').work;
    await history.init('t1');
    // A person keeps the manifest out of git (their own line in info/exclude), and it lists a file
    // that is gone: the snapshot sees a change (the entry), but nothing it can stage.
    appendFileSync(join(work, '.git', 'info', 'exclude'), `/${LARGE_MANIFEST}\n`);
    writeFileSync(join(work, LARGE_MANIFEST), JSON.stringify([{ path: 'gone.bin', size: 4, sha256: '0'.repeat(64) }]));
    const head = git(work, 'rev-parse', 'HEAD');
    expect(await history.snapshot('t1', 'agent:main', 'turn 1: nothing', turn(1))).toBeNull();
    expect(git(work, 'rev-parse', 'HEAD')).toBe(head);
    expect(existsSync(join(work, LARGE_MANIFEST))).toBe(false);
  } finally {
    dir.cleanup();
  }
});
