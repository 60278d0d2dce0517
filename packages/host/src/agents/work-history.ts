import { createHash } from 'node:crypto';
import { appendFileSync, closeSync, existsSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, readlinkSync, readSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { simpleGit, type SimpleGit } from 'simple-git';
import { CoworkError } from '../errors';
import type { Operator } from '../store/records';
import { RACY_MS } from '../util/file-memo';
import { containedPath } from '../util/paths';
import { taskPaths } from './task-files';

/**
 * A task's `work/` folder under git (simple-git), owned by the runtime: jobs run sandboxed with any
 * `.git` read-only, so only the host commits. After an agent's turn that changed files, a snapshot
 * commit by the agent ("turn N: tool a, tool b"); changes found at the start of a turn (a person's
 * editor, a job that finished late) are committed first as "others". Snapshots can be listed,
 * diffed and restored from; a restore is a new commit by whoever asked.
 *
 * The size rule: a file above `maxFileBytes`, or one that looks binary (a NUL in its first 8000
 * bytes), is kept out of git (listed in the repository's own `info/exclude`) and recorded in the
 * committed manifest `.cowork-large.json` (path, size, sha256). A folder that is another repository
 * (a nested `.git`) is left out whole.
 */

export const LARGE_MANIFEST = '.cowork-large.json';
export const DEFAULT_MAX_FILE_BYTES = 5 * 1024 * 1024;
const BINARY_PROBE = 8000;
const EXCLUDE_BEGIN = '# cowork: kept out of git (size rule, nested repositories)';
const OTHERS = 'others';
/** The runtime's settings of a task's repository (git reads repeated sections as one). */
const REPOSITORY_CONFIG = [
  '[user]', '\tname = cowork', '\temail = runtime@cowork',
  '[commit]', '\tgpgsign = false',
  '[core]', '\tautocrlf = false', '\tquotepath = false',
  '[gc]', '\tauto = 0',
  '',
].join('\n');

export interface WorkHistoryOptions {
  readonly workspaceDir: string;
  /** Files larger than this are kept out of git and listed in the manifest (default 5 MiB). */
  readonly maxFileBytes?: number;
  /** Which tasks exist: listing, diff and restore of another answer `not_found` (default: all). */
  readonly taskExists?: (taskId: string) => boolean | Promise<boolean>;
}

export interface LargeFile {
  readonly path: string;
  readonly size: number;
  readonly sha256: string;
}

/** One commit of `work/`: an agent's turn, others' changes before a turn, or a restore. */
export interface Snapshot {
  readonly commit: string;
  readonly kind: 'turn' | 'others' | 'restore' | 'init' | 'other';
  /** The agent whose turn it is (for `others`: whose turn it preceded). */
  readonly agentId: string | null;
  readonly turn: number | null;
  readonly author: string;
  readonly email: string;
  readonly at: string;
  readonly message: string;
  readonly files: string[];
}

export interface WorkFile {
  readonly path: string;
  /** The last commit that changed it (null for a large file listed in the manifest only). */
  readonly commit: string | null;
  readonly author: string | null;
  readonly turn: number | null;
  readonly at: string | null;
  readonly large?: { readonly size: number; readonly sha256: string };
}

export interface SnapshotResult {
  readonly commit: string;
  readonly files: string[];
}

/** What the agent loop calls around a turn; never throws (failures go to `onError`). */
export interface TurnFileHooks {
  /** Commits changes made since the last snapshot as others'; answers the changed paths. */
  beforeTurn(turn: number): Promise<string[]>;
  /** Commits what the turn changed as the agent's. */
  afterTurn(turn: number, tools: readonly string[]): Promise<void>;
}

interface FileInfo {
  readonly size: number;
  readonly mtimeMs: number;
}

interface StatusEntry {
  readonly path: string;
  readonly untracked: boolean;
  readonly deleted: boolean;
}

export class WorkHistory {
  private readonly maxFileBytes: number;
  /** One git operation at a time per task (Main and subagents share `work/`). */
  private readonly locks = new Map<string, Promise<unknown>>();
  private readonly hashes = new Map<string, FileInfo & { sha256: string }>();
  /**
   * Per task, the stat signature of `work/` when it was last known committed. A turn whose tools
   * touched no file (most turns) then costs one walk of lstat calls instead of git processes
   * (each spawn is tens of milliseconds); anything else asks git.
   */
  private readonly clean = new Map<string, { readonly work: string; readonly signature: string }>();

  constructor(private readonly options: WorkHistoryOptions) {
    this.maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  }

  /** The task's work folder, made a repository (idempotent). */
  init(taskId: string): Promise<void> {
    return this.locked(taskId, async () => {
      await this.repo(taskId);
    });
  }

  /**
   * Commits every uncommitted change in `work/` (size rule applied) with this author and message;
   * null when nothing changed.
   */
  snapshot(taskId: string, author: Operator | typeof OTHERS, message: string, trailers: Record<string, string>): Promise<SnapshotResult | null> {
    return this.locked(taskId, async () => {
      // The clean check walks the folder found when it was last committed: it only decides whether
      // to ask git, and asking git finds the folder again with every check (repo()).
      const known = this.clean.get(taskId);
      const current = known && existsSync(join(known.work, '.git', 'HEAD')) ? workSignature(known.work) : undefined;
      if (current !== undefined && current === known?.signature) return null;
      const { git, work } = await this.repo(taskId);
      // Signed before git reads the folder: a write while the commit runs leaves the folder unlike
      // this signature, so the next check asks git instead of taking that write as committed. The
      // check's walk is that signature when it walked the same folder (a walk of 10,000 files is
      // tens of ms).
      const signature = known?.work === work && current !== undefined ? current : workSignature(work);
      const result = await this.commitAll(git, work, author, message, trailers);
      this.rememberClean(taskId, work, signature);
      return result;
    });
  }

  /** Notes `work/` as committed with this signature; none (see workSignature) forgets it. */
  private rememberClean(taskId: string, work: string, signature = workSignature(work)): void {
    if (signature === undefined) this.clean.delete(taskId);
    else this.clean.set(taskId, { work, signature });
  }

  /** The hooks one agent's loop calls around its turns. Errors go to `onError`, never to the turn. */
  turnHooks(taskId: string, agentId: string, onError: (error: string, turn: number) => void): TurnFileHooks {
    return {
      beforeTurn: async (turn) => {
        try {
          const done = await this.snapshot(taskId, OTHERS, `changes by others before ${agentId}'s turn ${turn}`, { 'Cowork-Kind': 'others', 'Cowork-Agent': agentId, 'Cowork-Turn': String(turn) });
          return done?.files ?? [];
        } catch (error) {
          onError(messageOf(error), turn);
          return [];
        }
      },
      afterTurn: async (turn, tools) => {
        try {
          const names = [...new Set(tools)].join(', ');
          await this.snapshot(taskId, `agent:${agentId}`, `turn ${turn}: ${names || 'no tools'}`, { 'Cowork-Kind': 'turn', 'Cowork-Agent': agentId, 'Cowork-Turn': String(turn) });
        } catch (error) {
          onError(messageOf(error), turn);
        }
      },
    };
  }

  /** Every commit of `work/`, newest first. */
  async log(taskId: string): Promise<Snapshot[]> {
    await this.requireTask(taskId);
    return this.locked(taskId, async () => {
      const { git } = await this.repo(taskId);
      return readLog(git);
    });
  }

  /** The files of `work/` now, each with the last commit that changed it; large files from the manifest. */
  async files(taskId: string): Promise<WorkFile[]> {
    await this.requireTask(taskId);
    return this.locked(taskId, async () => {
      const { git, work } = await this.repo(taskId);
      const tracked = (await git.raw(['ls-files', '-z'])).split('\0').filter((p) => p !== '');
      const last = new Map<string, Snapshot>();
      for (const snapshot of await readLog(git)) for (const file of snapshot.files) if (!last.has(file)) last.set(file, snapshot);
      const files: WorkFile[] = tracked.map((path) => {
        const s = last.get(path);
        return { path, commit: s?.commit ?? null, author: s?.author ?? null, turn: s?.turn ?? null, at: s?.at ?? null };
      });
      for (const large of readManifest(work)) {
        files.push({ path: large.path, commit: null, author: null, turn: null, at: null, large: { size: large.size, sha256: large.sha256 } });
      }
      return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    });
  }

  /** The snapshot of an agent's turn (default Main's) and its patch against the commit before. */
  async diff(taskId: string, turn: number, agentId = 'main'): Promise<Snapshot & { patch: string }> {
    await this.requireTask(taskId);
    return this.locked(taskId, async () => {
      const { git } = await this.repo(taskId);
      const snapshot = await findTurn(git, turn, agentId);
      const patch = await git.raw(['show', '--no-color', '--format=', '--patch', snapshot.commit]);
      return { ...snapshot, patch };
    });
  }

  /**
   * Brings back `path` as it was after an agent's turn (default Main's), as a new commit by
   * `operator`. Everything is checked before a byte is written: a turn with no snapshot and a path
   * that did not exist then are `not_found`, a path outside `work/` is `invalid_input`. The file is
   * written to a temporary name and renamed into place.
   */
  async restore(taskId: string, path: unknown, turn: number, operator: Operator, agentId = 'main'): Promise<SnapshotResult & { path: string; turn: number }> {
    await this.requireTask(taskId);
    return this.locked(taskId, async () => {
      this.clean.delete(taskId);
      const { git, work } = await this.repo(taskId);
      const rel = workRelative(work, path);
      if (!Number.isInteger(turn) || turn < 1) throw new CoworkError('invalid_input', `turn must be a whole number from 1, not ${JSON.stringify(turn)}`, { field: 'turn' });
      const snapshot = await findTurn(git, turn, agentId);
      const exists = await git.raw(['ls-tree', '-z', '--name-only', snapshot.commit, '--', rel]);
      if (exists.split('\0')[0] !== rel) {
        throw new CoworkError('not_found', `${rel} did not exist in work/ after turn ${turn}${readManifest(work).some((l) => l.path === rel) ? ' (it is a large file, kept out of git)' : ''}`, { path: rel, turn });
      }
      const bytes = await git.binaryCatFile(['blob', `${snapshot.commit}:${rel}`]);
      // What others changed since the last snapshot is committed as theirs first, so a restore
      // never overwrites an edit that history does not hold.
      await this.commitAll(git, work, OTHERS, `changes by others before restoring ${rel}`, { 'Cowork-Kind': 'others', 'Cowork-Agent': agentId });
      const target = join(work, rel);
      mkdirSync(dirname(target), { recursive: true });
      const temp = join(dirname(target), `.cowork-restore-${process.pid}-${Date.now()}`);
      writeFileSync(temp, bytes);
      renameSync(temp, target);
      await git.raw(['add', '--', rel]);
      const parent = await headCommit(git, work);
      // The file already as it was after the turn: git commits nothing, and the answer says so (files: []).
      await git.raw(['commit', '-q', '--no-verify', '-m', withTrailers(`restore ${rel} from turn ${turn}`, { 'Cowork-Kind': 'restore', 'Cowork-Turn': String(turn), 'Cowork-Agent': agentId }), `--author=${authorOf(operator)}`, '--', rel]);
      const commit = await headCommit(git, work);
      return { commit, files: commit === parent ? [] : [rel], path: rel, turn };
    });
  }

  private async requireTask(taskId: string): Promise<void> {
    if (typeof taskId !== 'string' || (this.options.taskExists && !(await this.options.taskExists(taskId)))) {
      throw new CoworkError('not_found', `no task ${JSON.stringify(taskId)}`, { taskId });
    }
  }

  /** A large file's sha256, hashed again only when its size or mtime moved. */
  private hashOf(path: string, info: FileInfo): string {
    const known = this.hashes.get(path);
    if (known && known.size === info.size && known.mtimeMs === info.mtimeMs) return known.sha256;
    const sha256 = hashFile(path);
    this.hashes.set(path, { ...info, sha256 });
    return sha256;
  }

  private async locked<T>(taskId: string, run: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(taskId) ?? Promise.resolve();
    const next = previous.then(run, run);
    const settled = next.catch(() => undefined);
    this.locks.set(taskId, settled);
    try {
      return await next;
    } finally {
      if (this.locks.get(taskId) === settled) this.locks.delete(taskId);
    }
  }

  /** The work folder and a git client on it, initialised on first use. */
  private async repo(taskId: string): Promise<{ git: SimpleGit; work: string }> {
    const paths = taskPaths(this.options.workspaceDir, taskId);
    mkdirSync(paths.work, { recursive: true });
    const git = simpleGit({ baseDir: paths.work, maxConcurrentProcesses: 1, allowEnvironment: ['GIT_CONFIG_NOSYSTEM', 'GIT_TERMINAL_PROMPT', 'GIT_DIR', 'GIT_WORK_TREE'] }).env({ ...gitEnv(), GIT_DIR: join(paths.work, '.git'), GIT_WORK_TREE: paths.work });
    if (!existsSync(join(paths.work, '.git', 'HEAD'))) {
      await git.raw(['init', '-q', '-b', 'main']);
      // Written into the new repository's config file at once: a `git config` process per key
      // cost six spawns per task, most of a benchmark trial's time.
      appendFileSync(join(paths.work, '.git', 'config'), REPOSITORY_CONFIG);
      await git.raw(['commit', '-q', '--no-verify', '--allow-empty', '-m', withTrailers('work/ under git', { 'Cowork-Kind': 'init' })]);
      // A new task's empty folder is committed as it is: its first turn need not ask git.
      if (readdirSync(paths.work).every((name) => name === '.git')) this.rememberClean(taskId, paths.work);
    }
    return { git, work: paths.work };
  }

  private async commitAll(git: SimpleGit, work: string, author: string, message: string, trailers: Record<string, string>): Promise<SnapshotResult | null> {
    const status = parseStatus(await git.raw(['status', '--porcelain=v1', '-z', '-uall', '--no-renames']));
    const before = readManifest(work);
    const large = new Map(before.map((l) => [l.path, l]));
    const excluded = new Set(readExcluded(work));
    const changed = new Set<string>();
    const untrack: string[] = [];
    // Large files are not in git status once excluded: look at each one.
    for (const entry of before) {
      const full = join(work, entry.path);
      const info = statFile(full);
      if (!info || !isLarge(full, info.size, this.maxFileBytes)) {
        // Gone, or back under the rule (and text): out of the manifest, back into git.
        large.delete(entry.path);
        excluded.delete(`/${escapeGlob(entry.path)}`);
        changed.add(entry.path);
        continue;
      }
      const sha256 = this.hashOf(full, info);
      if (sha256 !== entry.sha256 || info.size !== entry.size) {
        large.set(entry.path, { path: entry.path, size: info.size, sha256 });
        changed.add(entry.path);
      }
    }
    for (const entry of status) {
      if (entry.path === LARGE_MANIFEST) continue;
      if (entry.path.endsWith('/')) {
        // Only another repository shows as a folder under -uall: leave it out whole.
        excluded.add(`/${escapeGlob(entry.path)}`);
        continue;
      }
      changed.add(entry.path);
      if (entry.deleted) continue;
      const full = join(work, entry.path);
      const info = statFile(full);
      if (!info || !isLarge(full, info.size, this.maxFileBytes)) continue;
      large.set(entry.path, { path: entry.path, size: info.size, sha256: this.hashOf(full, info) });
      excluded.add(`/${escapeGlob(entry.path)}`);
      if (!entry.untracked) untrack.push(entry.path);
    }
    if (changed.size === 0) {
      writeExcluded(work, [...excluded]);
      return null;
    }
    writeExcluded(work, [...excluded]);
    const manifest = [...large.values()].sort((a, b) => (a.path < b.path ? -1 : 1));
    if (JSON.stringify(manifest) !== JSON.stringify(before)) {
      if (manifest.length === 0) rmSync(join(work, LARGE_MANIFEST), { force: true });
      else writeFileSync(join(work, LARGE_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    }
    if (untrack.length > 0) await git.raw(['rm', '-q', '--cached', '--', ...untrack]);
    // --verbose: simple-git waits a further 50 ms after a git process that printed nothing.
    await git.raw(['add', '-A', '--verbose']);
    // With nothing staged, git commit answers "nothing to commit" on stdout (exit 1, nothing on
    // stderr, so simple-git does not throw) and HEAD stays where it was: no snapshot.
    const parent = await headCommit(git, work);
    const said = await git.raw(['commit', '-q', '--no-verify', '-m', withTrailers(message, trailers), `--author=${authorOf(author)}`]);
    const commit = await headCommit(git, work);
    if (commit !== parent) return { commit, files: [...changed].sort() };
    if (/nothing (added )?to commit|no changes added to commit/.test(said)) return null;
    throw new Error(`git commit made no commit: ${said.trim() || 'it said nothing'}`);
  }
}

const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * HEAD's commit id, read from `.git` as git commit leaves it (HEAD naming a branch, the branch's
 * loose ref): no process. Anything else (a packed or reftable ref, an odd HEAD) asks `git rev-parse`.
 */
async function headCommit(git: SimpleGit, work: string): Promise<string> {
  try {
    const dotGit = join(work, '.git');
    const head = readFileSync(join(dotGit, 'HEAD'), 'utf8').trim();
    if (OBJECT_ID.test(head)) return head;
    const ref = /^ref: (refs\/heads\/\S+)$/.exec(head)?.[1];
    if (ref && !ref.split('/').includes('..')) {
      const id = readFileSync(join(dotGit, ref), 'utf8').trim();
      if (OBJECT_ID.test(id)) return id;
    }
  } catch {
    // not a loose ref: ask git
  }
  return (await git.raw(['rev-parse', 'HEAD'])).trim();
}

/** `path` relative to `work/`, `/`-separated, refused (`invalid_input`) outside it or inside `.git`. */
export function workRelative(work: string, path: unknown): string {
  const full = containedPath(work, path, 'path', { baseName: "the task's work folder" });
  const rel = relative(containedPath(work, '.', 'path'), full).split(sep).join('/');
  if (rel === '' || rel === '.git' || rel.startsWith('.git/')) {
    throw new CoworkError('invalid_input', `path ${JSON.stringify(path)} must name a file of work/, not ${rel === '' ? 'the folder itself' : 'its .git'}`, { field: 'path', reason: 'outside_base' });
  }
  return rel;
}

function gitEnv(): Record<string, string> {
  // A small environment of its own: nothing of the caller's git settings, editors or pagers.
  const env: Record<string, string> = { LANG: 'C', LC_ALL: 'C' };
  // No HOME: a person's global configuration (hooks, signing, aliases) does not apply here.
  for (const key of ['PATH', 'TMPDIR']) if (process.env[key] !== undefined) env[key] = process.env[key]!;
  // No system configuration either: the repository's own settings only.
  env.GIT_CONFIG_NOSYSTEM = '1';
  env.GIT_TERMINAL_PROMPT = '0';
  return env;
}

function authorOf(operator: string): string {
  if (operator === OTHERS) return 'others <others@cowork>';
  const id = operator.replace(/^(agent|human|app):/, '');
  const email = operator.startsWith('agent:') ? `agent-${id}@cowork` : `${id}@cowork`;
  return `${operator} <${email.replace(/[<>\s]/g, '_')}>`;
}

function withTrailers(message: string, trailers: Record<string, string>): string {
  return `${message}\n\n${Object.entries(trailers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n')}\n`;
}

const FIELD = '\x1f';
const RECORD = '\x1e';

async function readLog(git: SimpleGit): Promise<Snapshot[]> {
  const format = `${RECORD}%H${FIELD}%an${FIELD}%ae${FIELD}%aI${FIELD}%s${FIELD}%(trailers:key=Cowork-Kind,valueonly,separator=)${FIELD}%(trailers:key=Cowork-Agent,valueonly,separator=)${FIELD}%(trailers:key=Cowork-Turn,valueonly,separator=)${FIELD}`;
  const out = await git.raw(['log', `--format=${format}`, '--name-only', '-z', '--no-renames']);
  const snapshots: Snapshot[] = [];
  for (const record of out.split(RECORD)) {
    if (record.trim() === '') continue;
    const [commit, author, email, at, message, kind, agent, turn, rest] = record.split(FIELD);
    const files = (rest ?? '').split(/[\0\n]/).filter((p) => p !== '');
    const k = (kind ?? '').trim();
    snapshots.push({
      commit: commit!,
      kind: k === 'turn' || k === 'others' || k === 'restore' || k === 'init' ? k : 'other',
      agentId: agent?.trim() || null,
      turn: turn?.trim() ? Number(turn.trim()) : null,
      author: author!,
      email: email!,
      at: at!,
      message: message!,
      files,
    });
  }
  return snapshots;
}

async function findTurn(git: SimpleGit, turn: number, agentId: string): Promise<Snapshot> {
  const snapshot = (await readLog(git)).find((s) => s.kind === 'turn' && s.turn === turn && s.agentId === agentId);
  if (!snapshot) throw new CoworkError('not_found', `no snapshot of ${agentId}'s turn ${turn} in work/ (a turn that changed no files has none)`, { turn, agentId });
  return snapshot;
}

function parseStatus(out: string): StatusEntry[] {
  const entries: StatusEntry[] = [];
  const parts = out.split('\0');
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (part.length < 4) continue;
    const xy = part.slice(0, 2);
    entries.push({ path: part.slice(3), untracked: xy === '??', deleted: xy.includes('D') });
    if (xy[0] === 'R' || xy[0] === 'C') i++;
  }
  return entries;
}

/** A file changed in the last RACY_MS up to this size is signed by its bytes; a larger one, not at all. */
const RACY_CONTENT_BYTES = 1024 * 1024;

/**
 * Every entry under `work/` but git's own folder, with its type, size, times and inode: it
 * changes whenever a file is written, added, removed or renamed (as git's index relies on the same
 * stat data to skip unchanged files). File times are coarse, and a same-size write in the same
 * tick leaves the stat as it was ("racy git"): an entry changed less than RACY_MS before `now` is
 * signed by its bytes too (a link by its target), and when it is too large for that the folder
 * has no signature (undefined) and the next check asks git.
 */
export function workSignature(work: string, now = Date.now()): string | undefined {
  let racy = false;
  const hash = createHash('sha1');
  const walk = (dir: string, rel: string): void => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      return;
    }
    for (const name of names) {
      if (rel === '' && name === '.git') continue;
      const path = join(dir, name);
      let info;
      try {
        info = lstatSync(path);
      } catch {
        continue;
      }
      hash.update(`${rel}${name}\0${info.mode}\0${info.size}\0${info.mtimeMs}\0${info.ctimeMs}\0${info.ino}\n`);
      if (now - Math.max(info.mtimeMs, info.ctimeMs) <= RACY_MS && !info.isDirectory()) {
        // A folder's own times need no bytes: the walk signs the names in it.
        try {
          if (info.isSymbolicLink()) hash.update(`\0link ${readlinkSync(path)}\n`);
          else if (info.isFile() && info.size <= RACY_CONTENT_BYTES) hash.update('\0bytes ').update(readFileSync(path)).update('\n');
          else racy = true;
        } catch {
          racy = true;
        }
      }
      if (info.isDirectory()) walk(path, `${rel}${name}/`);
    }
  };
  walk(work, '');
  return racy ? undefined : hash.digest('hex');
}

function statFile(path: string): FileInfo | undefined {
  try {
    const info = lstatSync(path);
    return info.isFile() ? { size: info.size, mtimeMs: info.mtimeMs } : undefined;
  } catch {
    return undefined;
  }
}

function isLarge(path: string, size: number, max: number): boolean {
  if (size > max) return true;
  const fd = openSync(path, 'r');
  try {
    const probe = Buffer.alloc(Math.min(size, BINARY_PROBE));
    const read = readSync(fd, probe, 0, probe.length, 0);
    return probe.subarray(0, read).includes(0);
  } finally {
    closeSync(fd);
  }
}

function hashFile(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

function readManifest(work: string): LargeFile[] {
  try {
    const parsed = JSON.parse(readFileSync(join(work, LARGE_MANIFEST), 'utf8')) as unknown;
    return Array.isArray(parsed) ? (parsed as LargeFile[]).filter((l) => typeof l?.path === 'string' && typeof l.sha256 === 'string') : [];
  } catch {
    return [];
  }
}

function escapeGlob(path: string): string {
  return path.replace(/[\\*?[\]!#\s]/g, (c) => `\\${c}`);
}

function readExcluded(work: string): string[] {
  try {
    const text = readFileSync(join(work, '.git', 'info', 'exclude'), 'utf8');
    const at = text.indexOf(EXCLUDE_BEGIN);
    return at < 0 ? [] : text.slice(at + EXCLUDE_BEGIN.length).split('\n').filter((l) => l !== '');
  } catch {
    return [];
  }
}

function writeExcluded(work: string, lines: string[]): void {
  const file = join(work, '.git', 'info', 'exclude');
  let head = '';
  try {
    const text = readFileSync(file, 'utf8');
    const at = text.indexOf(EXCLUDE_BEGIN);
    head = at < 0 ? text : text.slice(0, at);
  } catch {
    mkdirSync(dirname(file), { recursive: true });
  }
  const next = `${head}${EXCLUDE_BEGIN}\n${[...new Set(lines)].sort().join('\n')}\n`;
  let current = '';
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    // none yet
  }
  if (current !== next) writeFileSync(file, next);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
