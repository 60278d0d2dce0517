/**
 * Invariant: the real `cowork` bin, built from source, runs end to end as a separate process: it
 * prints help, creates and commits, exits 3 with the `revision_conflict` error when a commit's base
 * is stale, and exits 5 with `store_busy` (writing nothing) while another process holds the
 * workspace's write lock.
 */
import { spawnSync } from 'node:child_process';
import BetterSqlite3 from 'better-sqlite3';
import { join, resolve } from 'node:path';
import { hostDir, requireCurrentBuild } from '../support/built-host';
import { tempDir } from './cli-harness';

const repoRoot = resolve(hostDir, '..', '..');
const dir = tempDir();
afterAll(() => dir.cleanup());

beforeAll(requireCurrentBuild);

function cowork(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const env: NodeJS.ProcessEnv = { ...process.env, USER: 'binuser' };
  delete env.COWORK_WORKSPACE;
  delete env.COWORK_PLUGINS;
  const result = spawnSync(process.execPath, ['packages/host/bin/cowork.js', ...args, '--workspace', join(dir.path, 'ws')], {
    cwd: repoRoot,
    env,
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

it('runs as a process and exits 3 on a conflict', () => {
  const help = cowork('--help');
  expect(help.status).toBe(0);
  expect(help.stdout).toContain('cowork resources commit ID --base N --op JSON --operator OP');

  const created = cowork('resources', 'create', '--kind', 'text', '--json');
  expect(created).toMatchObject({ status: 0, stderr: '', stdout: expect.stringContaining('"revision": 0') });
  const { id } = JSON.parse(created.stdout) as { id: string };

  const op = '{"type":"append","text":"hi"}';
  expect(cowork('resources', 'commit', id, '--base', '0', '--op', op, '--operator', 'human:ann')).toMatchObject({
    status: 0,
    stdout: `committed ${id} at revision 1\n`,
  });

  const conflict = cowork('resources', 'commit', id, '--base', '0', '--op', op, '--operator', 'agent:late');
  expect(conflict.status).toBe(3);
  expect(conflict.stderr).toMatch(/^error revision_conflict: resource \S+ is at revision 1, not 0/);

  const candidates = cowork('resources', 'candidates', id, '--json');
  expect(candidates.status).toBe(0);
  expect(JSON.parse(candidates.stdout)).toMatchObject({ candidates: [{ status: 'open', operator: 'agent:late' }] });

  expect(cowork('resources', 'commit', id, '--base', 'x', '--op', op, '--operator', 'human:ann').status).toBe(2);
});

it('exits 5 with store_busy while another process holds the write lock', () => {
  const { id } = JSON.parse(cowork('resources', 'create', '--kind', 'text', '--json').stdout) as { id: string };
  // A separate process on purpose: in-process, jest's module sandboxes make better-sqlite3's errors
  // fail `instanceof Error`, which is not what a user's process sees.
  const other = new BetterSqlite3(join(dir.path, 'ws', 'cowork.db'));
  try {
    other.exec('BEGIN IMMEDIATE');
    const busy = cowork('resources', 'commit', id, '--base', '0', '--op', '{"type":"set","text":"x"}', '--operator', 'human:ann', '--json');
    expect({ status: busy.status, error: (JSON.parse(busy.stdout) as { error: { code: string } }).error.code }).toEqual({ status: 5, error: 'store_busy' });
  } finally {
    other.exec('ROLLBACK');
    other.close();
  }
  expect(JSON.parse(cowork('resources', 'show', id, '--json').stdout)).toMatchObject({ revision: 0, content: { text: '' } });
});
