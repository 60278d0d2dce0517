import { containedRelative, isCoworkError } from '@cowork/host';

/**
 * File paths inside a `web.app`: relative, `/`-separated, made of plain segments. The same rules
 * hold for the content schema (a pattern), ops and zip entries, so that no file can ever be
 * addressed outside the app when it is served or unpacked.
 */
export const MAX_PATH_CHARS = 200;

/**
 * A segment no path may have: a file or folder named `__proto__` cannot be a key of a plain object
 * (assigning it sets the object's prototype), so it would vanish from a content, a zip or a file tree.
 */
export const RESERVED_SEGMENT = '__proto__';

/** Segments of letters, digits and `._@+~-` joined by `/`, none of them `.`, `..` or `__proto__` (the lookaheads). */
export const PATH_PATTERN = '^(?!\\.{1,2}(?:/|$))(?!.*/\\.{1,2}(?:/|$))(?!(?:.*/)?__proto__(?:/|$))[A-Za-z0-9._@+~-]+(?:/[A-Za-z0-9._@+~-]+)*$';

const PATH_REGEX = new RegExp(PATH_PATTERN);

export const PATH_SCHEMA = { type: 'string', minLength: 1, maxLength: MAX_PATH_CHARS, pattern: PATH_PATTERN } as const;

/** Why `path` is not a valid file path of an app, or undefined when it is. */
export function pathProblem(path: string): string | undefined {
  const shown = JSON.stringify(path.length > 60 ? `${path.slice(0, 60)}…` : path);
  if (path.length === 0) return 'a file path may not be empty';
  if (path.length > MAX_PATH_CHARS) return `file path ${shown} is ${path.length} characters; the limit is ${MAX_PATH_CHARS}`;
  if (path.includes('\\')) return `file path ${shown} contains a backslash; separate folders with "/"`;
  if (path.startsWith('/')) return `file path ${shown} is absolute; give it relative to the app's root, like "js/app.js"`;
  const segments = path.split('/');
  if (segments.some((s) => s === '..')) return `file path ${shown} contains "..", which would leave the app; give a path inside it`;
  if (segments.some((s) => s === '.')) return `file path ${shown} contains a "." segment; write the path without it`;
  if (segments.some((s) => s === '')) return `file path ${shown} has an empty segment (a trailing or doubled "/")`;
  if (segments.includes(RESERVED_SEGMENT)) return `file path ${shown} has a file or folder named "${RESERVED_SEGMENT}", a name JavaScript objects reserve; rename it`;
  if (!PATH_REGEX.test(path)) return `file path ${shown} has characters other than letters, digits and . _ - @ + ~`;
  return containmentProblem(path);
}

/** The host's one containment check (containedRelative), as a message: the rules above are stricter, so this is the last gate. */
function containmentProblem(path: string): string | undefined {
  try {
    containedRelative(path, 'path', { relative: true, baseName: 'the app' });
    return undefined;
  } catch (error) {
    return isCoworkError(error) ? error.message : String(error);
  }
}
