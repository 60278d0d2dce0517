import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, posix, sep } from 'node:path';
import { CoworkError } from '../errors';

/**
 * The one containment check for every path an agent, a person or a plugin can name (a job's or a
 * monitor's working folder, a monitor's file, memory, skills, an app's files, zip entries, the
 * trainer's inputs): `containedPath` for paths on disk, `containedRelative` for paths inside a tree
 * that is not on disk (an app's files, a zip's entries). Both refuse the same malformed text first
 * (`checkPathText`); every refusal is `invalid_input` with details `{ field, reason }`.
 *
 * Time of check and time of use: `containedPath` answers for the file system as it is when it is
 * called. A folder of the answer that is swapped for a symlink afterwards is not seen; where a file
 * is then read, `openContained` opens it without following a final symlink and checks the real
 * path of the open descriptor, which closes that gap for reads.
 */

/** Most bytes a path may have (Linux's PATH_MAX). */
export const MAX_PATH_BYTES = 4096;
/** Most bytes one segment may have (NAME_MAX). */
export const MAX_SEGMENT_BYTES = 255;
/** Most symlinks followed while resolving one path (the kernel's limit, ELOOP past it). */
const MAX_LINKS = 40;

/** Why a path was refused: `details.reason` of the `invalid_input` error. */
export type PathRefusal =
  | 'not_a_string'
  | 'empty'
  | 'nul'
  | 'too_long'
  | 'segment_too_long'
  | 'encoded_traversal'
  | 'lookalike'
  | 'backslash'
  | 'absolute'
  | 'symlink_loop'
  | 'unresolvable'
  | 'outside_base'
  | 'outside_workspace';

export interface PathOptions {
  /** The path came from a URL (already decoded once): percent-encoded traversal left in it is refused. */
  readonly url?: boolean;
  /** Refuse absolute paths, even ones inside the base (paths given relative to an app or an archive). */
  readonly relative?: boolean;
  /** Words for the base in messages: "the workspace" (default "the base folder"). */
  readonly baseName?: string;
  /** The reason an escape is refused with (default `outside_base`). */
  readonly outsideReason?: 'outside_base' | 'outside_workspace';
}

/**
 * The real, absolute path `given` names under `base` (relative to it, or absolute), with every
 * symlink followed the way the kernel follows it (a `..` after a symlink climbs from the link's
 * target), required to be `base` or below it: compared with the base's real path plus a separator,
 * so `/ws-evil` is not inside `/ws`. The path need not exist; a dangling symlink counts as its
 * target, so a write through it cannot land outside. The part past the last existing folder is
 * taken as written.
 */
export function containedPath(base: string, given: unknown, field: string, options: PathOptions = {}): string {
  const text = checkPathText(given, field, options);
  const root = realpathSync(base);
  const path = resolvePhysical(root, text, field);
  if (!isInside(root, path)) {
    const reason = options.outsideReason ?? 'outside_base';
    throw refuse(field, reason, `${field} ${shown(text)} is outside ${options.baseName ?? 'the base folder'} ${root}`, reason === 'outside_workspace' ? { workspaceDir: root } : { base: root });
  }
  return path;
}

/**
 * A path inside a tree that is not on disk (an app's files, a zip's entries), checked like
 * `containedPath` and normalised: `/`-separated, relative, without `.` segments or a trailing `/`
 * ('' is the root). A `..` that would climb above the root is refused; `a/../b` is `b`.
 */
export function containedRelative(given: unknown, field: string, options: PathOptions = {}): string {
  const text = checkPathText(given, field, { ...options, relative: true });
  const normal = posix.normalize(`/${text}`);
  if (normal.startsWith('/..') || climbs(text)) {
    throw refuse(field, options.outsideReason ?? 'outside_base', `${field} ${shown(text)} leaves ${options.baseName ?? 'its root'}`);
  }
  return normal.replace(/^\/+|\/+$/g, '');
}

/** `containedPath` in the workspace, refusing an escape as `outside_workspace`. */
export function resolveInWorkspace(workspaceDir: string, given: unknown, field: string, options: PathOptions = {}): string {
  return containedPath(workspaceDir, given, field, { baseName: 'the workspace', outsideReason: 'outside_workspace', ...options });
}

/**
 * Opens a file `containedPath` accepts, without following a symlink in its last segment
 * (O_NOFOLLOW), then checks the real path of the open descriptor: a folder swapped for a symlink
 * between the check and the open is caught. The caller closes the descriptor.
 */
export function openContained(base: string, given: unknown, field: string, options: PathOptions = {}): { fd: number; path: string } {
  const path = containedPath(base, given, field, options);
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const root = realpathSync(base);
    if (!isInside(root, openedPath(fd, path))) {
      throw refuse(field, options.outsideReason ?? 'outside_base', `${field} ${shown(String(given))} resolved outside ${options.baseName ?? 'the base folder'} ${root} when opened`, {
        base: root,
      });
    }
    return { fd, path };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** The real path of an open descriptor: /proc's link where there is one, else the path if it is still the same file. */
function openedPath(fd: number, path: string): string {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    const opened = fstatSync(fd);
    const now = statSync(path);
    if (opened.dev !== now.dev || opened.ino !== now.ino) return '/';
    return realpathSync(path);
  }
}

/**
 * The text of a path, refused before anything touches the file system when it is not a string, is
 * empty or blank, holds a NUL, is over MAX_PATH_BYTES (or a segment over MAX_SEGMENT_BYTES), has a
 * segment that only looks like `.` or `..` (fullwidth or leader dots, which Unicode normalisation
 * would turn into dots), a `..` between backslashes (a separator elsewhere), or, for a URL path,
 * percent-encoding left that decodes to a traversal.
 */
export function checkPathText(given: unknown, field: string, options: PathOptions = {}): string {
  if (typeof given !== 'string') throw refuse(field, 'not_a_string', `${field} must be a path (a string)`);
  if (given.trim() === '') throw refuse(field, 'empty', `${field} must be a non-empty path`);
  if (given.includes('\0')) throw refuse(field, 'nul', `${field} ${shown(given)} contains a NUL character`);
  const bytes = Buffer.byteLength(given);
  if (bytes > MAX_PATH_BYTES) throw refuse(field, 'too_long', `${field} is ${bytes} bytes; a path may have at most ${MAX_PATH_BYTES}`);
  const segments = given.split('/');
  if (segments.some((s) => Buffer.byteLength(s) > MAX_SEGMENT_BYTES)) {
    throw refuse(field, 'segment_too_long', `${field} ${shown(given)} has a name over ${MAX_SEGMENT_BYTES} bytes`);
  }
  if (segments.some(isLookalike)) throw refuse(field, 'lookalike', `${field} ${shown(given)} has a segment of characters that look like dots or slashes`);
  if (given.includes('\\') && given.split(/[\\/]/).some((s) => s === '..')) {
    throw refuse(field, 'backslash', `${field} ${shown(given)} climbs with ".." between backslashes; separate folders with "/"`);
  }
  if (options.url && encodedTraversal(given)) {
    throw refuse(field, 'encoded_traversal', `${field} ${shown(given)} holds percent-encoded dots, slashes or NUL`);
  }
  if (options.relative && isAbsolute(given)) {
    throw refuse(field, 'absolute', `${field} ${shown(given)} is absolute; give it relative to ${options.baseName ?? 'its root'}`);
  }
  return given;
}

/** Whether `path` is `root` or below it (both absolute and real): the same path, or it starts with root + separator. */
export function isInside(root: string, path: string): boolean {
  if (path === root) return true;
  return path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** Resolves `given` against `root` segment by segment, following symlinks as the kernel does. */
function resolvePhysical(root: string, given: string, field: string): string {
  let current = isAbsolute(given) ? sep : root;
  const pending = given.split('/');
  let links = 0;
  while (pending.length > 0) {
    const segment = pending.shift()!;
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      current = dirname(current);
      continue;
    }
    const next = join(current, segment);
    let isLink = false;
    try {
      isLink = lstatSync(next).isSymbolicLink();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') {
        throw refuse(field, 'unresolvable', `${field} ${shown(given)} cannot be resolved: ${code ?? String(error)}`);
      }
    }
    if (!isLink) {
      current = next;
      continue;
    }
    if (++links > MAX_LINKS) throw refuse(field, 'symlink_loop', `${field} ${shown(given)} follows more than ${MAX_LINKS} symlinks`);
    const target = readlinkSync(next);
    pending.unshift(...target.split('/'));
    if (isAbsolute(target)) current = sep;
  }
  return current;
}

/** A `..` segment that climbs above the start of a relative path. */
function climbs(text: string): boolean {
  let depth = 0;
  for (const segment of text.split('/')) {
    if (segment === '..') depth--;
    else if (segment !== '' && segment !== '.') depth++;
    if (depth < 0) return true;
  }
  return false;
}

function isLookalike(segment: string): boolean {
  if (/^[\x20-\x7e]*$/.test(segment)) return false;
  const normal = segment.normalize('NFKC');
  return normal === '.' || normal === '..' || /[/\\]/.test(normal) || normal.split(/[/\\]/).some((s) => s === '..');
}

/** Percent-encoding that, decoded once or more, gives a `.`/`..` segment, a slash, a backslash or a NUL. */
function encodedTraversal(text: string): boolean {
  let current = text;
  for (let round = 0; round < 4 && /%[0-9a-fA-F]{2}/.test(current); round++) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(current);
    } catch {
      return true;
    }
    if (decoded.includes('\0') || decoded.split(/[\\/]/).length !== current.split(/[\\/]/).length) return true;
    if (decoded.split(/[\\/]/).some((s, i) => (s === '..' || s === '.') && current.split(/[\\/]/)[i] !== s)) return true;
    current = decoded;
  }
  return false;
}

function shown(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
}

function refuse(field: string, reason: PathRefusal, message: string, details: Record<string, unknown> = {}): CoworkError {
  return new CoworkError('invalid_input', message, { field, reason, ...details });
}
