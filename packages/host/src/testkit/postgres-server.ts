import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort } from './free-port';

/**
 * A throwaway PostgreSQL server for tests and benchmarks: `initdb` into a temporary folder, started
 * on a free port of 127.0.0.1 and a Unix socket in that folder, with the server's defaults (fsync on).
 * It can be crashed (SIGKILL of every server process) and started again on the same data, and
 * `dispose` stops it and removes the folder. Needs Debian's PostgreSQL binaries (tools/system-deps.txt).
 */
export interface PostgresServer {
  /** The superuser's URL of the `postgres` database (trust authentication, no password). */
  readonly url: string;
  readonly port: number;
  /** `postgres://...` of `database` on this server. */
  urlFor(database: string): string;
  /** Creates an empty database and returns its URL (`name` defaults to a fresh one). */
  createDatabase(name?: string): Promise<string>;
  /** Kills every server process with SIGKILL (as a machine crash would), leaving the data as it is. */
  crash(): Promise<void>;
  /** Starts the server again on the same data and port; it recovers from its WAL first. */
  restart(): Promise<void>;
  /** Whether the server accepts connections now. */
  readonly running: boolean;
  /** The server's last log lines, for a failing test's message. */
  log(): string;
  /** Stops the server and removes its folder. */
  dispose(): Promise<void>;
}

export interface PostgresServerOptions {
  /** Extra `-c name=value` settings. */
  readonly settings?: Readonly<Record<string, string>>;
}

const SUPERUSER = 'cowork';
const START_TIMEOUT_MS = 60_000;
const LOG_LINES = 200;

/** Starts a fresh server; call `dispose` in afterAll. */
export async function startPostgresServer(options: PostgresServerOptions = {}): Promise<PostgresServer> {
  const bindir = postgresBindir();
  const root = mkdtempSync(join(tmpdir(), 'cowork-pg-'));
  const dataDir = join(root, 'data');
  const socketDir = join(root, 'socket');
  mkdirSync(socketDir);
  const owner = serverOwner();
  if (owner) chownTree(root, owner);
  const logLines: string[] = [];
  const keepLog = (chunk: Buffer): void => {
    logLines.push(...chunk.toString('utf8').split('\n').filter((line) => line !== ''));
    logLines.splice(0, Math.max(0, logLines.length - LOG_LINES));
  };
  let child: ChildProcess | undefined;
  let port = 0;
  let disposed = false;

  const cleanup = (): void => {
    if (child?.pid !== undefined && child.exitCode === null) killGroup(child.pid);
  };
  // A test process that dies (or forgets dispose) must not leave a server behind.
  process.once('exit', cleanup);

  const urlFor = (database: string): string => `postgres://${SUPERUSER}@127.0.0.1:${port}/${encodeURIComponent(database)}`;

  /** Starts the postmaster on `port`; false (and nothing left running) when it did not come up. */
  const launch = async (): Promise<boolean> => {
    const settings = { listen_addresses: '127.0.0.1', port: String(port), unix_socket_directories: socketDir, max_connections: '200', ...options.settings };
    const args = ['-D', dataDir, ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`])];
    // Its own process group, so that a crash kills the postmaster and every backend at once.
    const started = spawn(join(bindir, 'postgres'), args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true, ...owner });
    started.stdout?.on('data', keepLog);
    started.stderr?.on('data', keepLog);
    child = started;
    if (await waitReady(urlFor('postgres'), started)) return true;
    if (started.exitCode === null) killGroup(started.pid!);
    await exited(started);
    return false;
  };

  const initdb = spawnSync(join(bindir, 'initdb'), ['-D', dataDir, '-U', SUPERUSER, '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync'], { encoding: 'utf8', ...owner });
  if (initdb.status !== 0) {
    rmSync(root, { recursive: true, force: true });
    throw new Error(`initdb failed (${initdb.status ?? initdb.signal}): ${initdb.stderr || initdb.error?.message}`);
  }
  // Another process may take the port between freePort and bind: a few tries, each on another port.
  let up = false;
  for (let attempt = 1; attempt <= 3 && !up; attempt += 1) {
    port = await freePort();
    up = await launch();
  }
  if (!up) {
    rmSync(root, { recursive: true, force: true });
    throw new Error(`PostgreSQL did not start:\n${logLines.join('\n')}`);
  }

  let databases = 0;
  return {
    get url() {
      return urlFor('postgres');
    },
    get port() {
      return port;
    },
    get running() {
      return child?.exitCode === null && child.signalCode === null;
    },
    urlFor,
    async createDatabase(name = `db${++databases}_${process.pid}`) {
      const client = new Client({ connectionString: urlFor('postgres') });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
      } finally {
        await client.end();
      }
      return urlFor(name);
    },
    async crash() {
      if (!child || child.exitCode !== null) return;
      const pid = child.pid!;
      killGroup(pid);
      await exited(child);
      // Backends orphaned before the signal reached them would keep the old shared memory in use.
      await waitUntil(() => !groupAlive(pid), 10_000);
    },
    async restart() {
      if (child && child.exitCode === null && child.signalCode === null) throw new Error('the server is running');
      // Right after a crash the old shared memory can still be held for a moment: try again shortly.
      for (let attempt = 1; attempt <= 5; attempt += 1) {
        if (await launch()) return;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      throw new Error(`PostgreSQL did not restart:\n${logLines.join('\n')}`);
    },
    log: () => logLines.join('\n'),
    async dispose() {
      if (disposed) return;
      disposed = true;
      process.removeListener('exit', cleanup);
      if (child && child.exitCode === null && child.signalCode === null) {
        // Fast shutdown; a server that does not stop in time is killed.
        child.kill('SIGINT');
        const stopped = await Promise.race([exited(child).then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000).unref())]);
        if (!stopped) killGroup(child.pid!);
        await exited(child);
        await waitUntil(() => !groupAlive(child!.pid!), 10_000);
      }
      rmSync(root, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}

/** The newest installed server's bin folder: Debian's /usr/lib/postgresql/<version>/bin, else pg_config's. */
export function postgresBindir(): string {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base) ? readdirSync(base).filter((v) => existsSync(join(base, v, 'bin', 'postgres'))) : [];
  versions.sort((a, b) => Number(b) - Number(a));
  if (versions[0] !== undefined) return join(base, versions[0], 'bin');
  const configured = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  const bindir = configured.status === 0 ? configured.stdout.trim() : '';
  if (bindir !== '' && existsSync(join(bindir, 'postgres'))) return bindir;
  throw new Error('no PostgreSQL server binaries found (looked in /usr/lib/postgresql/*/bin and pg_config --bindir); install postgresql (tools/install-system-deps.sh)');
}

/**
 * initdb and postgres refuse to run as root: as root, they run as the `postgres` system user
 * (spawn's uid/gid, so the child is the postmaster itself and its pid can be signalled).
 */
function serverOwner(): { uid: number; gid: number } | undefined {
  if (userInfo().uid !== 0) return undefined;
  const id = (flag: string): number => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  const uid = id('-u');
  const gid = id('-g');
  if (!Number.isInteger(uid) || uid <= 0 || !Number.isInteger(gid)) throw new Error('running as root, and there is no `postgres` user to run the server as');
  return { uid, gid };
}

function chownTree(path: string, owner: { uid: number; gid: number }): void {
  chownSync(path, owner.uid, owner.gid);
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.isDirectory()) chownTree(join(path, entry.name), owner);
    else chownSync(join(path, entry.name), owner.uid, owner.gid);
  }
}

/** True once the server answers a query; false when it exited first or did not answer in time. */
async function waitReady(url: string, server: ChildProcess): Promise<boolean> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (server.exitCode !== null || server.signalCode !== null) return false;
    const client = new Client({ connectionString: url, connectionTimeoutMillis: 2000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('SELECT 1');
      return true;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  return false;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitUntil(done: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}
