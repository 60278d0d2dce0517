/**
 * Invariant: an agent's job (started with the `start_job` tool) cannot get out of its sandbox. Each
 * escape attempt below is a small shell command, run twice as a real job with real processes: once
 * as an agent's job (sandboxed under bubblewrap) and once as the same command started unsandboxed
 * (as a person's `cowork jobs start` runs it), both in the task's work folder. The unsandboxed run
 * shows that the attempt is a real one: it escapes. The sandboxed run must not.
 *
 * "Escaped" is judged on the host, not by the job's exit code: a write escaped when the host's file
 * holds the run's marker, a read when the job printed the secret, a kill when the victim died.
 *
 * Needs bwrap (Debian's bubblewrap, tools/system-deps.txt). Writes only under os.tmpdir() (and,
 * when running as root, probes /etc, /usr/local and $HOME with uniquely named files it removes).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { homedir, networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { jobTools } from '../../src/plugins/builtin/jobs-plugin';
import type { ToolContext, ToolDefinition } from '../../src/plugins/types';
import type { Json } from '../../src/store/records';
import { findBwrap } from '../../src/jobs/sandbox';
import { jobsFixture, pidAlive, waitForEnd, type JobsFixture } from './job-harness';

const TASK = 'task_a';
const OTHER_TASK = 'task_b';
const SH = '/bin/sh';
const NODE = process.execPath;
const rand = randomBytes(6).toString('hex');
const secret = (what: string): string => `${what}-secret-${rand}`;

const TOKEN = secret('token');
const ENV_TOKEN = secret('envtoken');
const MODEL_KEY = secret('modelkey');
const OTHER_NOTES = secret('othertask');
const SPEC_SECRET = secret('jobspec');
const TCP_SECRET = secret('tcp');
const UNIX_SECRET = secret('unix');
const ABSTRACT_SECRET = secret('abstract');
const MARKER_NAME = `cowork-marker-${rand}`;

/** Host paths outside the workspace that the attempts aim at (removed after the tests). */
const HOST_TMP_FILE = join(tmpdir(), `cowork-hosttmp-${rand}`);
const HOST_TMP_NEW = join(tmpdir(), `cowork-hostnew-${rand}`);
const UNIX_SOCKET = join(tmpdir(), `cowork-sock-${rand}`);
const ETC_FILE = `/etc/cowork-escape-${rand}`;
const USR_FILE = `/usr/local/cowork-escape-${rand}`;
const HOME_FILE = join(homedir(), `.cowork-escape-${rand}`);
const SHM_FILE = `/dev/shm/cowork-escape-${rand}`;

/** What one run sees: its marker (written by write attempts) and the pids and ports it may aim at. */
interface RunEnv {
  readonly mark: string;
  readonly ws: string;
  readonly work: string;
  readonly victimPid: number;
  readonly markerPid: number;
  readonly tcpPort: number;
  readonly externalAddress: string | undefined;
}

interface Attempt {
  readonly name: string;
  readonly script: (e: RunEnv) => string;
  /** Whether the attempt worked, judged on the host after the job ended. */
  readonly escaped: (e: RunEnv, stdout: string) => boolean;
  /** Skip the "works unsandboxed" half where the host itself cannot do it (not root, no address). */
  readonly possible?: (e: RunEnv) => boolean;
}

const holds = (path: string, text: string): boolean => existsSync(path) && statSync(path).isFile() && readFileSync(path, 'utf8').includes(text);
const writable = (dir: string): boolean => {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
};
/** Whether this process may read `path` (a container's init may be out of even root's reach). */
const readable = (path: string): boolean => {
  try {
    accessSync(path, constants.R_OK);
    return true;
  } catch {
    return false;
  }
};
const write = (name: string, target: (e: RunEnv) => string, script: (e: RunEnv, path: string) => string, possible?: (e: RunEnv) => boolean): Attempt => ({
  name,
  script: (e) => script(e, target(e)),
  escaped: (e) => holds(target(e), e.mark),
  possible,
});
const read = (name: string, script: (e: RunEnv) => string, secretText: string | ((e: RunEnv) => string)): Attempt => ({
  name,
  script,
  escaped: (e, stdout) => stdout.includes(typeof secretText === 'string' ? secretText : secretText(e)),
});
const tcpClient = (host: string, port: number): string =>
  `${NODE} -e 'require("net").connect(${port}, "${host}").on("data", (d) => process.stdout.write(d)).on("error", (e) => { console.error(e.message); process.exit(1); })'`;
const unixClient = (path: string): string =>
  `${NODE} -e 'require("net").connect(${JSON.stringify(path)}).on("data", (d) => process.stdout.write(d)).on("error", (e) => { console.error(e.message); process.exit(1); })'`;

const ATTEMPTS: readonly Attempt[] = [
  // Writing outside the work folder.
  write('write a file in the workspace root', (e) => join(e.ws, `escape-root-${rand}.txt`), (e, p) => `echo ${e.mark} > ${p}`),
  write("write into another task's work folder", (e) => join(e.ws, 'tasks', OTHER_TASK, 'work', 'stolen.txt'), (e, p) => `echo ${e.mark} > ${p}`),
  write("append to another task's file", (e) => join(e.ws, 'tasks', OTHER_TASK, 'work', 'notes.txt'), (e, p) => `echo ${e.mark} >> ${p}`),
  write("write the own task's memory (outside the work folder)", (e) => join(e.ws, 'tasks', TASK, 'memory.md'), (e, p) => `echo ${e.mark} >> ${p}`),
  write("plant a file among the jobs' files", (e) => join(e.ws, 'jobs', 'job_fake', 'cancel.json'), (e, p) => `echo ${e.mark} > ${p}`),
  write('climb out of the work folder with ..', (e) => join(e.ws, `climbed-${rand}.txt`), (e) => `echo ${e.mark} > ../../../climbed-${rand}.txt`),
  write('move a file out of the work folder', (e) => join(e.ws, 'tasks', OTHER_TASK, `moved-${rand}.txt`), (e, p) => `echo ${e.mark} > m.txt && mv m.txt ${p}`),
  write('write into /etc', () => ETC_FILE, (e, p) => `echo ${e.mark} > ${p}`, () => writable('/etc')),
  write('write into /usr/local', () => USR_FILE, (e, p) => `echo ${e.mark} > ${p}`, () => writable('/usr/local')),
  write('write into $HOME', () => HOME_FILE, (e) => `echo ${e.mark} > "$HOME/.cowork-escape-${rand}"`, () => writable(homedir())),
  write("overwrite a file in the host's /tmp", () => HOST_TMP_FILE, (e, p) => `echo ${e.mark} > ${p}`),
  write("create a file in the host's /tmp", () => HOST_TMP_NEW, (e, p) => `echo ${e.mark} > ${p}`),
  write("write into the host's /dev/shm", () => SHM_FILE, (e, p) => `echo ${e.mark} > ${p}`, () => writable('/dev/shm')),
  write('write a hook into the work folder\'s .git', (e) => join(e.work, '.git', 'hooks', 'post-checkout'), (e, p) => `echo ${e.mark} > ${p}`),
  write('rewrite a nested repository\'s .git/config', (e) => join(e.work, 'repo', '.git', 'config'), (e, p) => `echo ${e.mark} >> ${p}`),
  write('write a hook through a .git symlink', (e) => join(e.work, 'gitstore', 'hooks', 'pre-commit'), (e) => `echo ${e.mark} > linked-repo/.git/hooks/pre-commit`),
  write('write a hook into the folder a .git file points to', (e) => join(e.work, 'gitstore2', 'hooks', 'pre-commit'), (e, p) => `echo ${e.mark} > ${p}`),
  write('write through a symlink to the workspace root', (e) => join(e.ws, `via-link-${rand}.txt`), (e) => `echo ${e.mark} > link-ws/via-link-${rand}.txt`),
  write("write through a symlink to another task's file", (e) => join(e.ws, 'tasks', OTHER_TASK, 'work', 'linked.txt'), (e) => `echo ${e.mark} > link-other`),
  write('write through /proc/1/root', (e) => join(e.ws, `proc1-${rand}.txt`), (e) => `echo ${e.mark} > /proc/1/root${e.ws}/proc1-${rand}.txt`, () => readable('/proc/1/root/')),
  write("write through /proc/<host pid>/root", (e) => join(e.ws, `procpid-${rand}.txt`), (e) => `echo ${e.mark} > /proc/${process.pid}/root${e.ws}/procpid-${rand}.txt`),
  write("write through /proc/<host pid>/cwd", (e) => join(e.ws, `proccwd-${rand}.txt`), (e) => `echo ${e.mark} > /proc/${e.markerPid}/cwd/proccwd-${rand}.txt`),

  // Reading the workspace's secrets.
  read('read the server token', (e) => `cat ${e.ws}/server-token`, TOKEN),
  read('read the database', (e) => `head -c 15 ${e.ws}/cowork.db`, 'SQLite format 3'),
  read("read the database's write-ahead log", (e) => `od -An -tx1 -N4 ${e.ws}/cowork.db-wal`, '37 7f 06 8'),
  read("list the jobs' files", (e) => `ls ${e.ws}/jobs`, 'job_fake'),
  read("read another job's spec", (e) => `cat ${e.ws}/jobs/job_fake/spec.json`, SPEC_SECRET),
  read("list the other tasks' folders", (e) => `ls ${e.ws}/tasks`, OTHER_TASK),
  read("read another task's file", (e) => `cat ${e.ws}/tasks/${OTHER_TASK}/work/notes.txt`, OTHER_NOTES),
  read('read the token with ..', () => 'cat ../../../server-token', TOKEN),
  read('read the token through a symlink', () => 'cat link-token', TOKEN),
  read('read the database through a symlink to the workspace', () => 'head -c 15 link-ws/cowork.db', 'SQLite format 3'),
  read('hard-link the token into the work folder', (e) => `ln ${e.ws}/server-token hard-token && cat hard-token`, TOKEN),
  { ...read('read the token through /proc/1/root', (e) => `cat /proc/1/root${e.ws}/server-token`, TOKEN), possible: () => readable('/proc/1/root/') },
  read('read the token through /proc/<host pid>/root', (e) => `cat /proc/${process.pid}/root${e.ws}/server-token`, TOKEN),
  read('read the token through /proc/<host pid>/cwd', (e) => `cat /proc/${e.markerPid}/cwd/server-token`, TOKEN),

  // The host's environment.
  read('read COWORK_TOKEN from the environment', () => 'printenv COWORK_TOKEN', ENV_TOKEN),
  read("read another secret of the host's environment", () => 'env', MODEL_KEY),
  read("read the supervisor's environment through /proc", () => 'tr "\\0" "\\n" < /proc/$PPID/environ', ENV_TOKEN),
  read("read a host process's environment through /proc", (e) => `tr "\\0" "\\n" < /proc/${e.markerPid}/environ`, ENV_TOKEN),

  // Host processes.
  read('see host processes with ps', () => 'ps -eo args', MARKER_NAME),
  read("read a host process's command line", (e) => `tr "\\0" " " < /proc/${e.markerPid}/cmdline`, MARKER_NAME),
  read("find the test's pid in /proc", () => 'ls /proc', (e) => `\n${e.markerPid}\n`),
  read("signal the test's process (kill -0)", () => `kill -0 ${process.pid} && echo alive-${rand}`, `alive-${rand}`),
  {
    name: 'kill a host process',
    script: (e) => `kill -KILL ${e.victimPid}`,
    escaped: (e) => !pidAlive(e.victimPid),
  },

  // The network.
  read('connect to a TCP server on 127.0.0.1', (e) => tcpClient('127.0.0.1', e.tcpPort), TCP_SECRET),
  {
    ...read("connect to the machine's own non-loopback address", (e) => tcpClient(e.externalAddress ?? '192.0.2.255', e.tcpPort), TCP_SECRET),
    possible: (e) => e.externalAddress !== undefined,
  },
  read("connect to a Unix socket in the host's /tmp", () => unixClient(UNIX_SOCKET), UNIX_SECRET),
  read('connect to an abstract Unix socket', () => unixClient(`\0cowork-${rand}`), ABSTRACT_SECRET),
];

/** What a sandboxed job must still be able to do. */
const ALLOWED: readonly { name: string; script: string; expect: string }[] = [
  { name: 'write and read in the work folder', script: `mkdir -p out && echo made-${rand} > out/f.txt && cat out/f.txt`, expect: `made-${rand}` },
  { name: 'write and read its own /tmp', script: `echo tmp-${rand} > /tmp/t && cat /tmp/t`, expect: `tmp-${rand}` },
  { name: 'read the system', script: 'head -1 /etc/passwd', expect: 'root:' },
  { name: 'run node', script: `${NODE} -e 'console.log(6 * 7)'`, expect: '42' },
  { name: 'read its .git (read-only, not hidden)', script: 'cat .git/HEAD', expect: 'ref: refs/heads/main' },
  { name: 'set its own environment', script: 'printenv MINE', expect: 'own-value' },
];

let fx: JobsFixture;
let tools: Map<string, ToolDefinition>;
let work: string;
let tcp: Server;
let unixServer: Server;
let abstractServer: Server;
let marker: ChildProcess;
const victims: ChildProcess[] = [];
const savedEnv = { COWORK_TOKEN: process.env.COWORK_TOKEN, COWORK_MODEL_API_KEY: process.env.COWORK_MODEL_API_KEY };

const haveBwrap = findBwrap() !== undefined;
const describeWithBwrap = haveBwrap ? describe : describe.skip;
if (!haveBwrap) console.warn('sandbox-escapes: bwrap is not installed (apt-get install bubblewrap); skipping');

function serve(listen: (server: Server) => void, reply: string): Promise<Server> {
  const server = createServer((socket) => socket.end(`${reply}\n`));
  return new Promise((resolveListen) => {
    server.once('listening', () => resolveListen(server));
    listen(server);
  });
}

function sleeper(args: string[], cwd: string): ChildProcess {
  // Started with the host's environment (which holds COWORK_TOKEN by then), like any host process.
  const child = spawn(NODE, ['-e', 'setInterval(() => {}, 1e6)', ...args], { cwd, env: process.env, stdio: 'ignore', detached: true });
  child.unref();
  return child;
}

function context(agentId: string): ToolContext {
  return { operator: `agent:${agentId}`, taskId: TASK, agentId, signal: new AbortController().signal, host: { workspaceDir: fx.dir, resources: undefined as never } };
}

async function runJob(script: string, sandboxed: boolean, env: Record<string, string> = {}): Promise<{ stdout: string; stderr: string; exitCode: number | null }> {
  let id: string;
  if (sandboxed) {
    const result = await tools.get('start_job')!.handler({ command: SH, args: ['-c', script], env } as unknown as Json, context('worker'));
    if (result.isError) throw new Error(`start_job failed: ${JSON.stringify(result.content)}`);
    id = (result.content as { id: string }).id;
  } else {
    id = (await fx.service.start({ command: SH, args: ['-c', script], cwd: work, env })).id;
  }
  const ended = await waitForEnd(fx.service, id, 30_000);
  return { stdout: await fx.service.readLog(id, 'stdout'), stderr: await fx.service.readLog(id, 'stderr'), exitCode: ended.exitCode };
}

/** Runs `items` through `fn`, a few at a time (each job is a supervisor process: the machine has few cores). */
async function inPool<T, R>(items: readonly T[], width: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await fn(items[index]!);
      }
    }),
  );
  return results;
}

async function runAll(sandboxed: boolean): Promise<{ env: RunEnv; results: { attempt: Attempt; escaped: boolean; ran: boolean; stdout: string; stderr: string }[] }> {
  const victim = sleeper([`cowork-victim-${rand}`], tmpdir());
  victims.push(victim);
  const external = Object.values(networkInterfaces())
    .flat()
    .find((i) => i !== undefined && !i.internal && i.family === 'IPv4');
  const env: RunEnv = {
    mark: `${sandboxed ? 'SANDBOXED' : 'OPEN'}-${rand}`,
    ws: fx.dir,
    work,
    victimPid: victim.pid!,
    markerPid: marker.pid!,
    tcpPort: (tcp.address() as { port: number }).port,
    externalAddress: external?.address,
  };
  const results = await inPool(ATTEMPTS, 3, async (attempt) => {
    // The closing echo shows that the job ran the attempt: a sandbox that ran nothing would fail every one.
    const run = await runJob(`${attempt.script(env)}\necho attempted-${rand}`, sandboxed);
    return { attempt, escaped: attempt.escaped(env, run.stdout), ran: run.stdout.includes(`attempted-${rand}`), stdout: run.stdout, stderr: run.stderr };
  });
  return { env, results };
}

describeWithBwrap('sandboxed agent jobs', () => {
  beforeAll(async () => {
    process.env.COWORK_TOKEN = ENV_TOKEN;
    process.env.COWORK_MODEL_API_KEY = MODEL_KEY;
    fx = await jobsFixture();
    tools = new Map(jobTools(fx.service).map((tool) => [tool.name, tool]));
    const ws = fx.dir;
    work = join(ws, 'tasks', TASK, 'work');
    mkdirSync(join(work, '.git', 'hooks'), { recursive: true });
    writeFileSync(join(work, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    mkdirSync(join(work, 'repo', '.git'), { recursive: true });
    writeFileSync(join(work, 'repo', '.git', 'config'), '[core]\n');
    // A repository whose .git is a symlink, and a worktree whose .git file names its git folder.
    mkdirSync(join(work, 'gitstore', 'hooks'), { recursive: true });
    mkdirSync(join(work, 'linked-repo'));
    symlinkSync(join(work, 'gitstore'), join(work, 'linked-repo', '.git'));
    mkdirSync(join(work, 'gitstore2', 'hooks'), { recursive: true });
    mkdirSync(join(work, 'worktree'));
    writeFileSync(join(work, 'worktree', '.git'), 'gitdir: ../gitstore2\n');
    writeFileSync(join(ws, 'tasks', TASK, 'memory.md'), '# memory\n');
    mkdirSync(join(ws, 'tasks', OTHER_TASK, 'work'), { recursive: true });
    writeFileSync(join(ws, 'tasks', OTHER_TASK, 'work', 'notes.txt'), `${OTHER_NOTES}\n`);
    writeFileSync(join(ws, 'tasks', OTHER_TASK, 'work', 'linked.txt'), 'original\n');
    writeFileSync(join(ws, 'server-token'), `${TOKEN}\n`, { mode: 0o600 });
    mkdirSync(join(ws, 'jobs', 'job_fake'), { recursive: true });
    writeFileSync(join(ws, 'jobs', 'job_fake', 'spec.json'), JSON.stringify({ env: { API_KEY: SPEC_SECRET } }));
    symlinkSync(join(ws, 'server-token'), join(work, 'link-token'));
    symlinkSync(ws, join(work, 'link-ws'));
    symlinkSync(join(ws, 'tasks', OTHER_TASK, 'work', 'linked.txt'), join(work, 'link-other'));
    writeFileSync(HOST_TMP_FILE, 'original\n');
    // The store wrote its schema, so the write-ahead log holds frames.
    expect(statSync(join(ws, 'cowork.db-wal')).size).toBeGreaterThan(0);
    tcp = await serve((s) => s.listen(0, '0.0.0.0'), TCP_SECRET);
    unixServer = await serve((s) => s.listen(UNIX_SOCKET), UNIX_SECRET);
    abstractServer = await serve((s) => s.listen(`\0cowork-${rand}`), ABSTRACT_SECRET);
    // A host process with the host's environment, its cwd in the workspace, and a recognisable name.
    marker = sleeper([MARKER_NAME], ws);
  });

  afterAll(async () => {
    for (const child of [marker, ...victims]) if (child?.pid !== undefined && pidAlive(child.pid)) process.kill(child.pid, 'SIGKILL');
    for (const server of [tcp, unixServer, abstractServer]) server?.close();
    for (const path of [HOST_TMP_FILE, HOST_TMP_NEW, UNIX_SOCKET, ETC_FILE, USR_FILE, HOME_FILE, SHM_FILE]) rmSync(path, { force: true });
    await fx?.dispose();
    for (const [name, value] of Object.entries(savedEnv)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it(`every one of the ${ATTEMPTS.length} escape attempts works unsandboxed and fails from an agent's sandboxed job`, async () => {
    expect(ATTEMPTS.length).toBeGreaterThanOrEqual(30);
    const open = await runAll(false);
    const sandboxed = await runAll(true);
    const report = ATTEMPTS.map((attempt, i) => {
      const o = open.results[i]!;
      const s = sandboxed.results[i]!;
      const possible = attempt.possible?.(open.env) ?? true;
      return { name: attempt.name, unsandboxed: possible ? o.escaped : 'not possible here', sandboxed: s.escaped, ...(s.escaped && { stdout: s.stdout, stderr: s.stderr }) };
    });
    expect([...open.results, ...sandboxed.results].filter((r) => !r.ran).map((r) => r.attempt.name)).toEqual([]);
    // The attempts are real: without the sandbox each one gets out (where the host itself can).
    const notReal = report.filter((r) => r.unsandboxed === false).map((r) => ({ name: r.name, ...open.results.find((o) => o.attempt.name === r.name) }));
    expect(notReal.map(({ name, stdout, stderr }) => ({ name, stdout: stdout?.slice(0, 300), stderr: stderr?.slice(0, 300) }))).toEqual([]);
    // And from an agent's job none does.
    expect(report.filter((r) => r.sandboxed)).toEqual([]);
    // The host's files the attempts aimed at are as they were.
    expect(readFileSync(HOST_TMP_FILE, 'utf8')).toBe(`OPEN-${rand}\n`);
    expect(readFileSync(join(fx.dir, 'server-token'), 'utf8')).toBe(`${TOKEN}\n`);
    const skipped = report.filter((r) => r.unsandboxed === 'not possible here').map((r) => r.name);
    if (skipped.length > 0) console.warn(`sandbox-escapes: not possible on this host even unsandboxed: ${skipped.join('; ')}`);
  }, 240_000);

  it('lets a sandboxed job work in its work folder, its /tmp and the read-only system', async () => {
    const results = await inPool(ALLOWED, 3, async (allowed) => ({ name: allowed.name, ...(await runJob(allowed.script, true, { MINE: 'own-value' })) }));
    for (const result of results) expect(result).toMatchObject({ name: result.name, exitCode: 0, stdout: expect.stringContaining(ALLOWED.find((a) => a.name === result.name)!.expect) });
    expect(readFileSync(join(work, 'out', 'f.txt'), 'utf8')).toBe(`made-${rand}\n`);
  }, 60_000);

  it('refuses network without the grant, and gives it to Main, which holds every grant', async () => {
    const script = tcpClient('127.0.0.1', (tcp.address() as { port: number }).port);
    const denied = await tools.get('start_job')!.handler({ command: SH, args: ['-c', script], network: true }, context('worker'));
    expect(denied).toMatchObject({ isError: true, content: { error: { code: 'permission_denied', permission: 'network' } } });
    const granted = await tools.get('start_job')!.handler({ command: SH, args: ['-c', script], network: true }, context('main'));
    expect(granted.content).toMatchObject({ sandbox: { network: true } });
    const ended = await waitForEnd(fx.service, (granted.content as { id: string }).id, 30_000);
    expect(ended).toMatchObject({ status: 'succeeded' });
    expect(await fx.service.readLog(ended.id, 'stdout')).toContain(TCP_SECRET);
    // Network does not widen the file system: the token stays out of reach.
    const token = await tools.get('start_job')!.handler({ command: SH, args: ['-c', `cat ${fx.dir}/server-token`], network: true }, context('main'));
    const tokenJob = await waitForEnd(fx.service, (token.content as { id: string }).id, 30_000);
    expect(await fx.service.readLog(tokenJob.id, 'stdout')).not.toContain(TOKEN);
  }, 60_000);
});
