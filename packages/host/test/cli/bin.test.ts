/**
 * Invariant: the real `cowork` bin, built from source, runs end to end as a separate process: it
 * prints help, creates and commits, exits 3 with the `revision_conflict` error when a commit's base
 * is stale, and exits 5 with `store_busy` (writing nothing) while another process holds the
 * workspace's write lock.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import BetterSqlite3 from 'better-sqlite3';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tempDir } from './cli-harness';

const hostDir = resolve(__dirname, '..', '..');
const repoRoot = resolve(hostDir, '..', '..');
const dir = tempDir();
afterAll(() => dir.cleanup());

beforeAll(() => {
  // Build dist/ in place, as `npm run build` does, so the bin runs the current source. dist/ is not
  // deleted (other projects may be reading it), but outputs whose source is gone are: tsc leaves
  // them, and a stale dist/x.js shadows a new dist/x/index.js.
  pruneStaleOutputs(join(hostDir, 'dist'), join(hostDir, 'src'));
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: hostDir, stdio: 'pipe' });
}, 180_000);

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

/** Removes `dist` files (.js, .d.ts, .js.map) and folders that no longer have a source in `src`. */
function pruneStaleOutputs(dist: string, src: string): void {
  if (!existsSync(dist)) return;
  for (const entry of readdirSync(dist, { withFileTypes: true })) {
    const output = join(dist, entry.name);
    if (entry.isDirectory()) {
      if (existsSync(join(src, entry.name))) pruneStaleOutputs(output, join(src, entry.name));
      else rmSync(output, { recursive: true, force: true });
      continue;
    }
    const stem = /^(.*?)(\.d\.ts|\.js\.map|\.js)$/.exec(entry.name)?.[1];
    if (stem !== undefined && !existsSync(join(src, `${stem}.ts`))) rmSync(output, { force: true });
  }
}
