import { accessSync, closeSync, constants, lstatSync, openSync, readdirSync, readSync, realpathSync, statSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';

/**
 * The sandbox agents' jobs and command monitors run in: bubblewrap (`bwrap`, Debian's
 * `bubblewrap`) around the command. This module only builds the command line; the supervisor
 * (jobs) and the command observer (monitors) run it, so it imports Node built-ins only.
 *
 * What the command sees:
 * - the system read-only (`/` bound read-only, so every path that exists stays where it is);
 * - the workspace replaced by an empty read-only folder (`hidden`), except the task's work folder
 *   (`workDir`), bound read-write: the database, the server token, the jobs' files and the other
 *   tasks' folders are not there at all, so neither a path nor a symlink nor `..` reaches them;
 * - `.git` entries in the work folder (up to GIT_SCAN_DEPTH folders deep, and the folders a `.git`
 *   symlink or `gitdir:` file points to) bound read-only over themselves, so a job cannot plant
 *   hooks or rewrite history a person later runs git in;
 * - its own `/tmp` (an empty tmpfs), `/dev` (null, zero, random, a pty, shm) and `/proc`;
 * - its own pid namespace (host processes are not visible, /proc/1 is the sandbox's own init),
 *   IPC, UTS and (where the kernel has them) cgroup namespaces;
 * - no network (its own network namespace holds only loopback) unless `network` is true; without
 *   network, `/run` (where host services keep their sockets) is an empty tmpfs too;
 * - no capabilities (`--cap-drop ALL`; bwrap also sets no_new_privs, so setuid and file
 *   capabilities grant nothing), even when the host runs as root;
 * - a minimal environment (SAFE_ENV plus the job's own variables): no COWORK_TOKEN or other secret
 *   of the host's environment.
 *
 * Not `--new-session`: the supervisor already starts the command in its own session without a
 * terminal (so TIOCSTI has nothing to inject into), and a new session would take the command out
 * of the process group that cancel signals. Not `--die-with-parent`: the command's fate does not
 * change with the sandbox: a job whose supervisor was killed keeps running, as an unsandboxed one does.
 */

/** What a sandboxed command may touch; recorded in the job's spec and the monitor's target. */
export interface SandboxSpec {
  /** The one folder the command may write to (besides its own /tmp): absolute and real. */
  readonly workDir: string;
  /** Folders (absolute, real) replaced by an empty read-only folder: the workspace. `workDir` is bound back inside. */
  readonly hidden: readonly string[];
  /** Whether the command keeps the host's network (granted), or gets its own empty network namespace. */
  readonly network: boolean;
}

/** The host's environment variables a sandboxed command keeps (when set); everything else is dropped. */
export const SAFE_ENV: readonly string[] = ['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LANGUAGE', 'TZ', 'TERM'];
/** `.git` entries this many folders below the work folder (0: the work folder's own) are masked read-only. */
export const GIT_SCAN_DEPTH = 4;
/** Folders the `.git` scan does not enter (dependency trees: large, and not where a person runs git). */
const SCAN_SKIP = new Set(['node_modules', '.git']);
const DEFAULT_PATH = '/usr/local/bin:/usr/bin:/bin';
const BWRAP_FALLBACKS = ['/usr/bin/bwrap', '/usr/local/bin/bwrap', '/bin/bwrap'];

/**
 * The bwrap executable: `COWORK_BWRAP` when set (only that), else on PATH, else where Debian puts
 * it; undefined when it is not installed.
 */
export function findBwrap(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const path = env.PATH ?? '';
  const candidates = env.COWORK_BWRAP
    ? [env.COWORK_BWRAP]
    : [...path.split(delimiter).filter((dir) => dir.startsWith('/')).map((dir) => join(dir, 'bwrap')), ...BWRAP_FALLBACKS];
  return candidates.find((candidate) => {
    try {
      accessSync(candidate, constants.X_OK);
      return statSync(candidate).isFile();
    } catch {
      return false;
    }
  });
}

/** A command line that runs `command args` in `cwd` (inside `spec.workDir`) under bwrap at `bwrap`. */
export function sandboxedCommand(
  bwrap: string,
  spec: SandboxSpec,
  run: { readonly command: string; readonly args: readonly string[]; readonly cwd: string; readonly env: Readonly<Record<string, string>> },
  hostEnv: NodeJS.ProcessEnv = process.env,
): { file: string; args: string[]; env: Record<string, string> } {
  const args = ['--ro-bind', '/', '/', '--tmpfs', '/tmp', '--dev', '/dev', '--proc', '/proc'];
  if (!spec.network) args.push('--tmpfs', '/run');
  // Order matters: each hidden folder becomes an empty tmpfs, the work folder is bound back into it,
  // then the tmpfs is made read-only (a remount of that mount only, not of the work folder on it).
  for (const dir of spec.hidden) args.push('--tmpfs', dir);
  args.push('--bind', spec.workDir, spec.workDir);
  for (const git of gitEntries(spec.workDir)) args.push('--ro-bind', git, git);
  for (const dir of spec.hidden) args.push('--remount-ro', dir);
  args.push('--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try');
  if (!spec.network) args.push('--unshare-net');
  args.push('--cap-drop', 'ALL', '--chdir', run.cwd, '--', run.command, ...run.args);
  return { file: bwrap, args, env: sandboxEnv(run.env, hostEnv) };
}

/** The environment of a sandboxed command: the host's SAFE_ENV and locale variables, then the job's own. */
export function sandboxEnv(own: Readonly<Record<string, string>>, hostEnv: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = { PATH: DEFAULT_PATH };
  for (const [name, value] of Object.entries(hostEnv)) {
    if (value !== undefined && (SAFE_ENV.includes(name) || name.startsWith('LC_'))) env[name] = value;
  }
  env.TMPDIR = '/tmp';
  return { ...env, ...own };
}

/**
 * `.git` entries (folders or files) in `workDir` and its folders up to GIT_SCAN_DEPTH deep, and
 * the repository folders they point to inside `workDir` (a `.git` symlink's target, a `.git`
 * file's `gitdir:`), so that git's real folder is read-only too. The scan follows no symlink.
 */
export function gitEntries(workDir: string): string[] {
  const found: string[] = [];
  const pointed = (target: string): void => {
    try {
      const real = realpathSync(target);
      if (real !== workDir && real.startsWith(`${workDir}/`) && !found.includes(real)) found.push(real);
    } catch {
      // Dangling: nothing to protect.
    }
  };
  const visit = (dir: string, depth: number): void => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(dir, name);
      let stats;
      try {
        stats = lstatSync(path);
      } catch {
        continue;
      }
      if (name === '.git') {
        if (stats.isDirectory()) found.push(path);
        else if (stats.isFile()) {
          found.push(path);
          const gitdir = /^gitdir:\s*(.+)$/m.exec(readHead(path))?.[1]?.trim();
          if (gitdir) pointed(resolve(dir, gitdir));
        } else if (stats.isSymbolicLink()) pointed(path);
      }
      if (stats.isDirectory() && depth < GIT_SCAN_DEPTH && !SCAN_SKIP.has(name)) visit(path, depth + 1);
    }
  };
  visit(workDir, 0);
  return found;
}

/** The first bytes of a small file (a `.git` file is one line). */
function readHead(path: string): string {
  try {
    const fd = openSync(path, 'r');
    try {
      const buffer = Buffer.alloc(4096);
      return buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0)).toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return '';
  }
}
