/**
 * Invariant: `cowork serve`, run as the real bin, listens on the port it was given (0: a free one,
 * printed), answers the API only with its token, prints a generated token once and never again,
 * keeps it in a 0600 file, refuses to listen beyond loopback without COWORK_TOKEN (writing
 * nothing), and exits 0 on SIGTERM or SIGINT. Started through `tools/serve.sh` (what `npm start`
 * runs), V8's background pool is sized to the machine; started without it on a machine where the
 * default pool shares the event loop's core, it says so.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { poolSizeFor } from '../../src/cli/node-pool';
import { hostDir, requireCurrentBuild } from '../support/built-host';
import { tempDir } from '../support/temp-host';

const repoRoot = resolve(hostDir, '..', '..');
const bin = join(hostDir, 'bin', 'cowork.js');
const dir = tempDir();
afterAll(() => dir.cleanup());

beforeAll(requireCurrentBuild);

/** The environment of a user with no cowork or model settings, plus `extra`. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  for (const name of Object.keys(env)) if (name.startsWith('COWORK_') && !(name in extra)) delete env[name];
  return env;
}

interface Served {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first match of `pattern` in stdout, once it has been printed. */
  printed(pattern: RegExp): Promise<RegExpExecArray>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `cowork serve` started as the bin (`node bin/cowork.js serve`), or through `tools/serve.sh`. */
function serve(args: string[], env: NodeJS.ProcessEnv = cleanEnv(), via: 'bin' | 'serve.sh' = 'bin'): Served {
  const [command, commandArgs] = via === 'bin' ? [process.execPath, [bin, 'serve', ...args]] : ['bash', [join(repoRoot, 'tools', 'serve.sh'), ...args]];
  const child = spawn(command, commandArgs, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const waiters: (() => void)[] = [];
  child.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
    for (const check of waiters) check();
  });
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.once('exit', (code, signal) => done({ code, signal })));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    printed: (pattern) =>
      new Promise((done, fail) => {
        const check = (): void => {
          const match = pattern.exec(out);
          if (match) done(match);
        };
        waiters.push(check);
        check();
        void exited.then(() => fail(new Error(`cowork serve exited before printing ${pattern}; stdout:\n${out}\nstderr:\n${err}`)));
      }),
  };
}

it('serves with a generated token, prints it once, and exits 0 on SIGTERM and SIGINT', async () => {
  const workspace = join(dir.path, 'ws');
  const first = serve(['--port', '0', '--workspace', workspace]);
  const [, url] = await first.printed(/ at (http:\/\/127\.0\.0\.1:\d+)\n/);
  const [, token] = await first.printed(/^token: (\S+) \(generated now/m);
  expect(url).not.toMatch(/:7420$/);
  expect(first.stdout()).toContain('tasks: off');

  const health = await fetch(`${url}/api/health`, { headers: { authorization: `Bearer ${token}` } });
  expect([health.status, await health.json()]).toEqual([200, expect.objectContaining({ status: 'ok' })]);
  expect((await fetch(`${url}/api/health`)).status).toBe(401);
  const created = await fetch(`${url}/api/resources`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ kind: 'text' }) });
  expect(created.status).toBe(201);

  const tokenFile = join(workspace, 'server-token');
  expect(readFileSync(tokenFile, 'utf8').trim()).toBe(token);
  expect(statSync(tokenFile).mode & 0o777).toBe(0o600);

  const port = new URL(url!).port;
  const busy = spawnSync(process.execPath, [bin, 'serve', '--port', port, '--workspace', join(dir.path, 'busy')], { cwd: repoRoot, env: cleanEnv(), encoding: 'utf8' });
  expect(busy.status).toBe(2);
  expect(busy.stderr).toContain(`error invalid_input: cannot listen on 127.0.0.1:${port}: the port is in use`);

  first.child.kill('SIGTERM');
  expect(await first.exited).toEqual({ code: 0, signal: null });

  // Started again: the same token, from the file, and not printed.
  const second = serve(['--port', '0', '--workspace', workspace]);
  const [, url2] = await second.printed(/ at (http:\/\/127\.0\.0\.1:\d+)\n/);
  await second.printed(/^token: in .*server-token$/m);
  expect(second.stdout()).not.toContain(token);
  expect((await fetch(`${url2}/api/resources`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  second.child.kill('SIGINT');
  expect(await second.exited).toEqual({ code: 0, signal: null });
}, 60_000);

it('refuses a non-loopback address without COWORK_TOKEN, writing nothing', () => {
  const workspace = join(dir.path, 'refused');
  const refused = spawnSync(process.execPath, [bin, 'serve', '--host', '0.0.0.0', '--port', '0', '--workspace', workspace], { cwd: repoRoot, env: cleanEnv(), encoding: 'utf8' });
  expect(refused.status).toBe(2);
  expect(refused.stderr).toMatch(/^error invalid_input: refusing to listen on 0\.0\.0\.0, which is not a loopback address, without COWORK_TOKEN/);
  expect(existsSync(workspace)).toBe(false);

  const badPort = spawnSync(process.execPath, [bin, 'serve', '--port', 'http', '--workspace', workspace], { cwd: repoRoot, env: cleanEnv(), encoding: 'utf8' });
  expect(badPort.status).toBe(2);
  expect(badPort.stderr).toMatch(/^error invalid_input: --port must be a whole number/);
});

it('listens beyond loopback with COWORK_TOKEN, and takes only that token', async () => {
  const token = 'an-explicit-token-for-the-lan';
  const served = serve(['--host', '0.0.0.0', '--port', '0', '--workspace', join(dir.path, 'lan')], cleanEnv({ COWORK_TOKEN: token }));
  const [, port] = await served.printed(/ at http:\/\/0\.0\.0\.0:(\d+)\n/);
  await served.printed(/^token: from COWORK_TOKEN$/m);
  const base = `http://127.0.0.1:${port}`;
  expect((await fetch(`${base}/api/health`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  expect((await fetch(`${base}/api/health`, { headers: { authorization: 'Bearer something-else-entirely' } })).status).toBe(401);
  expect(existsSync(join(dir.path, 'lan', 'server-token'))).toBe(false);
  served.child.kill('SIGTERM');
  expect(await served.exited).toEqual({ code: 0, signal: null });
}, 60_000);

describe("V8's background pool", () => {
  const cores = availableParallelism();
  /** No pool from the environment running the tests. */
  const noNodeOptions = (): NodeJS.ProcessEnv => cleanEnv({ NODE_OPTIONS: '' });
  /** The start report of a `--json` start, once printed (one JSON object). */
  const report = async (served: Served): Promise<{ nodePool: unknown; url: string }> => {
    await served.printed(/^}$/m);
    return JSON.parse(served.stdout()) as { nodePool: unknown; url: string };
  };

  it('tools/serve.sh starts the host with the pool sized to the machine, and the host stops on SIGTERM as itself', async () => {
    const served = serve(['--port', '0', '--workspace', join(dir.path, 'sized'), '--json'], noNodeOptions(), 'serve.sh');
    const { nodePool, url } = await report(served);
    expect(nodePool).toEqual({ threads: poolSizeFor(cores), cores, setBy: 'flag' });
    expect(served.stderr()).not.toContain('background threads');
    expect((await fetch(`${url}/api/health`)).status).toBe(401);
    // exec: the signal reaches the host itself, not a shell in front of it.
    served.child.kill('SIGTERM');
    expect(await served.exited).toEqual({ code: 0, signal: null });
  }, 60_000);

  it("keeps a pool the user gave in NODE_OPTIONS", async () => {
    const served = serve(['--port', '0', '--workspace', join(dir.path, 'given'), '--json'], cleanEnv({ NODE_OPTIONS: '--v8-pool-size=3' }), 'serve.sh');
    expect((await report(served)).nodePool).toEqual({ threads: 3, cores, setBy: 'flag' });
    served.child.kill('SIGTERM');
    expect(await served.exited).toEqual({ code: 0, signal: null });
  }, 60_000);

  it("started as the bin, reports Node's default pool, and says what to do where it shares the event loop's core", async () => {
    const served = serve(['--port', '0', '--workspace', join(dir.path, 'default'), '--json'], noNodeOptions());
    expect((await report(served)).nodePool).toEqual({ threads: 4, cores, setBy: 'node default' });
    if (poolSizeFor(cores) < 4) expect(served.stderr()).toContain(`warning: Node's 4 background threads share this machine's ${cores} cores with the event loop`);
    else expect(served.stderr()).not.toContain('background threads');
    served.child.kill('SIGTERM');
    expect(await served.exited).toEqual({ code: 0, signal: null });
  }, 60_000);
});
