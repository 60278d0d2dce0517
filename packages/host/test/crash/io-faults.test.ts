/**
 * Invariant: a disk fault during a commit (a failed fsync, a full disk) is answered with
 * `store_io_error` (507, with its hint and SQLite's code), is never acknowledged, leaves nothing
 * half-written, and the server keeps answering; every acknowledged commit is there after a restart.
 *
 * Real processes, no mocks: the host's HTTP server runs in a child (io-fault-server.ts) and the
 * test commits through HTTP, so a 200 is the acknowledgement.
 *
 * - fsync: the server runs under `strace -e inject=fsync,fdatasync:error=EIO:when=K+`, restricted
 *   (`-P`) to the workspace's WAL, so its K-th commit's fsync fails and so does every later one.
 *   The store fails itself at the first (see sqlite-store.ts): the failed commit and every later
 *   request that touches the store answer `store_io_error`, /api/health still answers. Then the
 *   workspace is reopened without strace. SQLite's honest guarantee: every acknowledged commit is
 *   there; the one failed commit may be there too (its WAL frames were written, only the fsync
 *   failed, and recovery reads them), and nothing after it (the store refused every later write).
 * - fsync, in-process: commit-child.ts (the SIGKILL tests' child: plain commits, drafts accepted
 *   as two revisions in one transaction, coordinator events) runs under the same strace; its
 *   first failed write stops it with the error and a non-zero exit, and the reopened workspace has
 *   every acknowledged revision and event, with at most the change in flight beyond them.
 * - full disk: the workspace lives on a 2 MiB tmpfs next to a filler file. Commits go on until the
 *   disk is full: that commit and a large value that needs a file answer `store_io_error`, reads
 *   still work, and after the filler is deleted the same server commits again.
 *
 * Neither facility is optional: without strace, or without the right to mount a tmpfs (root), the
 * test fails and says so.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ERROR_CODES } from '../../src/errors/codes';
import { tempDir } from '../support/temp-host';
import { ChildRun, type CommitAck, type EventAck } from './child-run';
import { verifyEvents, verifyResource, withHost } from './verify-workspace';

const SERVER_PATH = resolve(__dirname, 'io-fault-server.ts');
const PACKAGE_DIR = resolve(__dirname, '../..');
const TOKEN = 'io-fault-test-token-0123456789abcdef';
const OPERATOR = 'agent:io';
/** A request that gets no answer in this long counts as a hung server. */
const REQUEST_TIMEOUT_MS = 15_000;

interface Answer {
  readonly status: number;
  readonly body: { revision?: number; error?: { code: string; hint: string; message: string; sqliteCode?: string; errno?: string; storeFailed?: boolean } };
}

/** One run of io-fault-server.ts, optionally under a wrapper command (strace). */
class ServerChild {
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly child: ChildProcess;
  private stdout = '';
  private stderr = '';

  constructor(workspaceDir: string, wrapper: readonly string[] = []) {
    const node = [process.execPath, '--import', 'tsx', SERVER_PATH, workspaceDir, TOKEN];
    const argv = [...wrapper, ...node];
    this.child = spawn(argv[0]!, argv.slice(1), { cwd: PACKAGE_DIR, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdin!.on('error', () => undefined);
    this.child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (this.stdout += chunk));
    this.child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (this.stderr += chunk));
    this.exited = new Promise((done) => this.child.once('close', (code, signal) => done({ code, signal })));
  }

  /** Resolves with the server's URL once it listens; rejects if it exits first. */
  async url(): Promise<string> {
    for (;;) {
      const match = /^listening (\S+)$/m.exec(this.stdout);
      if (match) return match[1]!;
      const exited = await Promise.race([this.exited, new Promise<undefined>((done) => setTimeout(() => done(undefined), 50))]);
      if (exited) throw new Error(`the server exited before listening: ${this.describe()}`);
    }
  }

  async request(url: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<Answer> {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    return { status: response.status, body: (await response.json()) as Answer['body'] };
  }

  commit(url: string, resourceId: string, baseRevision: number, text: string): Promise<Answer> {
    return this.request(url, 'POST', `/api/resources/${resourceId}/commits`, { baseRevision, op: { type: 'append', text }, operator: OPERATOR });
  }

  /**
   * Closes the server's stdin: it closes itself and the host and exits (a signal would reach strace,
   * not the server). Resolves with how it exited.
   */
  async stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    this.child.stdin!.end();
    const timeout = setTimeout(() => this.child.kill('SIGKILL'), 20_000);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timeout);
    }
  }

  describe(): string {
    return `server ${this.child.pid}\nstdout:\n${this.stdout}\nstderr:\n${this.stderr}`;
  }

  get errors(): string {
    return this.stderr;
  }
}

/** The answer a failed write must get: 507 `store_io_error` with the registry's hint. */
function expectIoError(answer: Answer, server: ServerChild): NonNullable<Answer['body']['error']> {
  if (answer.status !== 507 || answer.body.error?.code !== 'store_io_error') {
    throw new Error(`expected 507 store_io_error, got ${answer.status} ${JSON.stringify(answer.body)}; ${server.describe()}`);
  }
  expect(answer.body.error.hint).toBe(ERROR_CODES.store_io_error.hint);
  return answer.body.error;
}

function requireStrace(): void {
  const probe = spawnSync('strace', ['-V'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new Error(`the fsync fault test needs strace (Debian package strace, listed in tools/system-deps.txt): ${probe.error?.message ?? probe.stderr}`);
  }
}

/** strace that fails the `failAt`-th fsync of `workspace`'s WAL and every later one, logging to `log`. */
function straceFailingFsync(workspace: string, failAt: number, log: string): string[] {
  return ['strace', '-f', '-qq', '-o', log, '-P', join(workspace, 'cowork.db-wal'), '-e', 'trace=fsync,fdatasync', '-e', `inject=fsync,fdatasync:error=EIO:when=${failAt}+`];
}

/** A fresh workspace with one empty text resource; returns the resource's id. */
async function createResource(workspaceDir: string): Promise<string> {
  return withHost(workspaceDir, async (host) => (await host.resources.create({ kind: 'text', operator: 'human:tester' })).id);
}

describe('disk faults during commits', () => {
  const servers = new Set<ServerChild>();
  afterEach(async () => {
    await Promise.all([...servers].map((server) => server.stop()));
    servers.clear();
  });

  it('a failed fsync answers store_io_error, stops the store, and loses no acknowledged commit', async () => {
    requireStrace();
    const dir = tempDir('cowork-fsync-');
    try {
      const workspace = join(dir.path, 'ws');
      const resourceId = await createResource(workspace);
      const acks: CommitAck[] = [];
      let head = 0;
      const summary: string[] = [];
      // K: the first failing fsync of the WAL. 1 fails the first commit; larger ones let K - 1 pass.
      for (const [round, failAt] of [1, 4, 9].entries()) {
        const log = join(dir.path, `strace-${round}.log`);
        const server = new ServerChild(workspace, straceFailingFsync(workspace, failAt, log));
        servers.add(server);
        const url = await server.url();

        const before = acks.length;
        let failed: { token: string; error: NonNullable<Answer['body']['error']> } | undefined;
        for (let n = 0; n < 50 && !failed; n += 1) {
          const token = `f${round}.${n};`;
          const answer = await server.commit(url, resourceId, head, token);
          if (answer.status === 200) {
            head = answer.body.revision!;
            acks.push({ revision: head, tokens: [token] });
          } else {
            failed = { token, error: expectIoError(answer, server) };
          }
        }
        if (!failed) throw new Error(`50 commits and no fault: was the fsync injected? ${server.describe()}\nstrace log:\n${readFileSync(log, 'utf8')}`);
        expect(failed.error.sqliteCode).toBe('SQLITE_IOERR_FSYNC');
        // Every acknowledged commit had its own successful fsync of the WAL (synchronous=FULL); opening
        // the host may write (and fsync) once before the first commit.
        const trace = readFileSync(log, 'utf8');
        expect(trace).toMatch(/fsync\(.*EIO.*\(INJECTED\)/);
        const fsynced = trace.split('\n').filter((line) => /fsync\(\d+\)\s+= 0$/.test(line)).length;
        expect(fsynced).toBe(failAt - 1);
        expect(acks.length - before).toBeLessThanOrEqual(fsynced);
        expect(acks.length - before).toBeGreaterThanOrEqual(failAt - 2);

        // The store refuses from now on, reads included, and says why; the server itself still answers.
        const retry = expectIoError(await server.commit(url, resourceId, head, `f${round}.refused;`), server);
        expect(retry).toMatchObject({ storeFailed: true, sqliteCode: 'SQLITE_IOERR_FSYNC' });
        expectIoError(await server.request(url, 'GET', `/api/resources/${resourceId}`), server);
        expect((await server.request(url, 'GET', '/api/health')).status).toBe(200);
        expect(server.errors).toMatch(/every further read and write answers store_io_error until the host is restarted/);
        const exit = await server.stop();
        servers.delete(server);
        expect({ exit }).toEqual({ exit: { code: 0, signal: null } });

        // Restart without faults: every acknowledged commit, at its revision; at most the failed
        // one beyond them; never the refused one.
        await withHost(workspace, async (host) => {
          expect(await host.store.integrityCheck()).toEqual([]);
          const reopened = await verifyResource(host, resourceId, acks, round * 7919);
          const history = await host.resources.history(resourceId);
          const beyond = history.slice(head + 1).map((r) => (r.op as { text: string }).text);
          expect([[], [failed!.token]]).toContainEqual(beyond);
          summary.push(`round ${round}: WAL fsync ${failAt} failed, ${acks.length - before} commits acknowledged before it, head ${head} -> ${reopened} after restart${beyond.length ? ' (the failed commit was recovered from the WAL)' : ''}`);
          head = reopened;
          // And the workspace takes commits again.
          head = (await host.resources.commit(resourceId, { baseRevision: head, op: { type: 'append', text: `f${round}.after;` }, operator: OPERATOR })).revision;
          acks.push({ revision: head, tokens: [`f${round}.after;`] });
        });
      }
      console.info(`io faults (fsync):\n${summary.join('\n')}`);
    } finally {
      dir.cleanup();
    }
  }, 180_000);

  it('a failed fsync stops a process committing through the host API, with every acknowledged change kept', async () => {
    requireStrace();
    const dir = tempDir('cowork-fsync-api-');
    try {
      const workspace = join(dir.path, 'ws');
      const resourceId = await createResource(workspace);
      const commits: CommitAck[] = [];
      const events: EventAck[] = [];
      const summary: string[] = [];
      for (const [round, failAt] of [6, 17].entries()) {
        const log = join(dir.path, `strace-${round}.log`);
        const child = ChildRun.start(workspace, resourceId, `s${round}`, straceFailingFsync(workspace, failAt, log));
        child.go();
        const exit = await child.exited;
        expect({ exit, badLines: child.badLines }).toEqual({ exit: { code: 1, signal: null }, badLines: [] });
        expect(child.describe()).toMatch(/disk I\/O error \(SQLITE_IOERR_FSYNC\): the write was not acknowledged/);
        expect(readFileSync(log, 'utf8')).toMatch(/\(INJECTED\)/);
        commits.push(...child.commits);
        events.push(...child.events);
        const lastAcked = commits.at(-1)?.revision ?? 0;
        await withHost(workspace, async (host) => {
          expect(await host.store.integrityCheck()).toEqual([]);
          const head = await verifyResource(host, resourceId, commits, failAt);
          // In flight at the fault: at most one change, a draft's two revisions at the most.
          expect(head - lastAcked).toBeLessThanOrEqual(2);
          const lastSeq = await verifyEvents(host, events);
          summary.push(`round ${round}: WAL fsync ${failAt} failed after ${child.commits.length} acknowledged changes and ${child.events.length} events; head ${head} (last acknowledged ${lastAcked}), ${lastSeq} events after restart`);
        });
      }
      console.info(`io faults (fsync, host API):\n${summary.join('\n')}`);
    } finally {
      dir.cleanup();
    }
  }, 180_000);

  it('a full disk answers store_io_error, keeps serving, and commits again once there is room', async () => {
    const dir = tempDir('cowork-full-');
    const mountPoint = join(dir.path, 'small');
    mkdirSync(mountPoint);
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=2m,mode=0700', 'tmpfs', mountPoint], { encoding: 'utf8' });
    if (mounted.error || mounted.status !== 0) {
      dir.cleanup();
      throw new Error(
        `the full-disk test needs a 2 MiB filesystem and mounts a tmpfs for it, which takes root (CAP_SYS_ADMIN): mount said ${mounted.error?.message ?? mounted.stderr.trim()}`,
      );
    }
    try {
      const workspace = join(mountPoint, 'ws');
      const filler = join(mountPoint, 'filler');
      const resourceId = await createResource(workspace);
      writeFileSync(filler, Buffer.alloc(512 * 1024, 1));
      const server = new ServerChild(workspace);
      servers.add(server);
      const url = await server.url();

      const acks: CommitAck[] = [];
      let head = 0;
      let failed: { token: string; error: NonNullable<Answer['body']['error']> } | undefined;
      for (let n = 0; n < 5000 && !failed; n += 1) {
        const token = `d.${n}.${'x'.repeat(1500)};`;
        const answer = await server.commit(url, resourceId, head, token);
        if (answer.status === 200) {
          head = answer.body.revision!;
          acks.push({ revision: head, tokens: [token] });
        } else {
          failed = { token, error: expectIoError(answer, server) };
        }
      }
      if (!failed) throw new Error(`5000 commits did not fill a 2 MiB filesystem; ${server.describe()}`);
      expect(failed.error.sqliteCode ?? failed.error.errno).toMatch(/^(SQLITE_FULL|ENOSPC)$/);
      const filled = acks.length;

      // Still full: a large value (kept as its own file) fails too, and leaves no partial file behind.
      const large = expectIoError(await server.commit(url, resourceId, head, `d.large.${'y'.repeat(300 * 1024)};`), server);
      expect(large.sqliteCode ?? large.errno).toMatch(/^(SQLITE_FULL|ENOSPC)$/);
      const values = join(workspace, 'values');
      const leftovers = existsSync(values) ? readdirSync(values, { recursive: true }).map(String).filter((name) => name.endsWith('.tmp')) : [];
      expect(leftovers).toEqual([]);
      // A full disk does not fail the store: reads work, the server answers.
      const read = await server.request(url, 'GET', `/api/resources/${resourceId}`);
      expect({ status: read.status, revision: (read.body as { revision?: number }).revision }).toEqual({ status: 200, revision: head });
      expect((await server.request(url, 'GET', '/api/health')).status).toBe(200);

      // Room again: the same server commits.
      rmSync(filler);
      for (let n = 0; n < 3; n += 1) {
        const token = `d.after.${n};`;
        const answer = await server.commit(url, resourceId, head, token);
        expect({ status: answer.status, error: answer.body.error }).toEqual({ status: 200, error: undefined });
        head = answer.body.revision!;
        acks.push({ revision: head, tokens: [token] });
      }
      const exit = await server.stop();
      servers.delete(server);
      expect({ exit }).toEqual({ exit: { code: 0, signal: null } });

      // Restart: exactly the acknowledged commits, nothing of the failed ones.
      await withHost(workspace, async (host) => {
        expect(await host.store.integrityCheck()).toEqual([]);
        expect(await verifyResource(host, resourceId, acks, filled)).toBe(head);
      });
      console.info(`io faults (full disk): ${filled} commits acknowledged before the 2 MiB disk was full (${failed.error.sqliteCode ?? failed.error.errno}), 3 after the filler was deleted; all ${acks.length} there after a restart, head ${head}`);
    } finally {
      spawnSync('umount', [mountPoint]);
      dir.cleanup();
    }
  }, 180_000);
});
