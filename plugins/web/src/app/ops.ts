import { opShape, rejectOp } from '@cowork/host';
import { MAX_FILES, MAX_TOTAL_BYTES, fileAt, fileProblems, formatBytes, hasFile, isText, totalBytes, type WebApp, type WebFile } from './content';
import { pathProblem } from './paths';

/**
 * Ops of `web.app`. Files are addressed by path, so ops on different files commute: a person's
 * edit to style.css and an agent's to app.js made from the same revision both land.
 * - `put_file` creates or replaces a file (`text`, or `base64` with an optional `mediaType`);
 * - `patch_file` replaces the one occurrence of `find` in a text file with `replace`: the small
 *   edit agents make without resending the file; refused when `find` occurs zero or several times;
 * - `rename_file` moves a file (the entry follows it);
 * - `delete_file` removes a file other than the entry;
 * - `set_entry` makes another HTML file the page opened at the app's root.
 */
export type WebAppOp =
  | { type: 'put_file'; path: string; text?: string; base64?: string; mediaType?: string }
  | { type: 'patch_file'; path: string; find: string; replace: string }
  | { type: 'rename_file'; from: string; to: string }
  | { type: 'delete_file'; path: string }
  | { type: 'set_entry'; path: string };

// Paths are plain strings here: validateOp explains a bad path better than a schema pattern can.
const PATH = { type: 'string' } as const;

export const WEB_APP_OP_SCHEMA = {
  oneOf: [
    opShape('put_file', { path: PATH, text: { type: 'string' }, base64: { type: 'string' }, mediaType: { type: 'string' } }, ['path']),
    opShape('patch_file', { path: PATH, find: { type: 'string' }, replace: { type: 'string' } }),
    opShape('rename_file', { from: PATH, to: PATH }),
    opShape('delete_file', { path: PATH }),
    opShape('set_entry', { path: PATH }),
  ],
} as const;

/** Checks that need no content: paths inside the app, one file's encoding and size, a non-empty snippet. */
export function validateWebAppOp(op: WebAppOp): string[] {
  const paths = op.type === 'rename_file' ? [op.from, op.to] : [op.path];
  const problems = paths.map(pathProblem).filter((p): p is string => p !== undefined);
  if (problems.length > 0) return problems;
  switch (op.type) {
    case 'put_file':
      return fileProblems(op.path, op);
    case 'patch_file':
      return op.find === '' ? ['patch_file needs a non-empty find: the exact text to replace, as it appears in the file'] : [];
    case 'rename_file':
      return op.from === op.to ? [`rename_file from and to are both ${JSON.stringify(op.from)}`] : [];
    case 'set_entry':
      return isHtml(op.path) ? [] : [`the entry must be an HTML file (.html or .htm), not ${JSON.stringify(op.path)}`];
    case 'delete_file':
      return [];
  }
}

/** Applies an op without mutating `app`; throws `rejectOp` (nothing changes) when it does not fit. */
export function applyWebAppOp(app: WebApp, op: WebAppOp): WebApp {
  const problems = validateWebAppOp(op);
  if (problems.length > 0) throw rejectOp(problems.join('; '), { type: op.type });
  switch (op.type) {
    case 'put_file': {
      const file: WebFile = op.text !== undefined ? { text: op.text } : { base64: op.base64!, ...(op.mediaType ? { mediaType: op.mediaType } : {}) };
      if (!hasFile(app, op.path)) {
        checkFreePath(app, op.path);
        if (Object.keys(app.files).length >= MAX_FILES) {
          throw rejectOp(`the app already has ${MAX_FILES} files, the most a web.app may hold; delete one before adding ${JSON.stringify(op.path)}`, { path: op.path });
        }
      }
      return withTotalChecked({ ...app, files: { ...app.files, [op.path]: file } }, op.path);
    }
    case 'patch_file': {
      const file = textFile(app, op.path);
      const at = file.text.indexOf(op.find);
      if (at < 0) {
        throw rejectOp(`the find text does not occur in ${JSON.stringify(op.path)}; read the file again and copy the exact text (spaces and line breaks included)`, { path: op.path });
      }
      const count = occurrences(file.text, op.find);
      if (count > 1) {
        throw rejectOp(`the find text occurs ${count} times in ${JSON.stringify(op.path)}; include more of the surrounding text so that it occurs once`, { path: op.path, occurrences: count });
      }
      const text = file.text.slice(0, at) + op.replace + file.text.slice(at + op.find.length);
      const problems = fileProblems(op.path, { text });
      if (problems.length > 0) throw rejectOp(problems.join('; '), { path: op.path });
      return withTotalChecked({ ...app, files: { ...app.files, [op.path]: { text } } }, op.path);
    }
    case 'rename_file': {
      const file = existing(app, op.from);
      if (hasFile(app, op.to)) throw rejectOp(`${JSON.stringify(op.to)} already exists; delete it first or pick another name`, { path: op.to });
      if (op.from === app.entry && !isHtml(op.to)) {
        throw rejectOp(`${JSON.stringify(op.from)} is the entry and must stay an HTML file; set_entry to another page first`, { path: op.from });
      }
      const files = Object.fromEntries(Object.entries(app.files).filter(([path]) => path !== op.from));
      checkFreePath({ ...app, files }, op.to);
      return { entry: app.entry === op.from ? op.to : app.entry, files: { ...files, [op.to]: file } };
    }
    case 'delete_file': {
      existing(app, op.path);
      if (op.path === app.entry) throw rejectOp(`${JSON.stringify(op.path)} is the entry; set_entry to another HTML file before deleting it`, { path: op.path });
      return { ...app, files: Object.fromEntries(Object.entries(app.files).filter(([path]) => path !== op.path)) };
    }
    case 'set_entry':
      existing(app, op.path);
      return { ...app, entry: op.path };
  }
}

export function isHtml(path: string): boolean {
  return /\.html?$/i.test(path);
}

function existing(app: WebApp, path: string): WebFile {
  const file = fileAt(app, path);
  if (!file) throw rejectOp(`no file ${JSON.stringify(path)} in the app; it has ${listFiles(app)}`, { path });
  return file;
}

function textFile(app: WebApp, path: string): { text: string } {
  const file = existing(app, path);
  if (!isText(file)) throw rejectOp(`${JSON.stringify(path)} is a binary file; replace it with put_file instead of patching it`, { path });
  return file;
}

/** A path may not be a file and a folder at once (`a.js` and `a.js/b`): it could be neither served nor unzipped. */
function checkFreePath(app: WebApp, path: string): void {
  for (const other of Object.keys(app.files)) {
    if (other.startsWith(`${path}/`) || path.startsWith(`${other}/`)) {
      throw rejectOp(`${JSON.stringify(path)} clashes with ${JSON.stringify(other)}: one would be a folder and a file at once`, { path, other });
    }
  }
}

function withTotalChecked(app: WebApp, path: string): WebApp {
  const total = totalBytes(app);
  if (total > MAX_TOTAL_BYTES) {
    throw rejectOp(`with ${JSON.stringify(path)} the app would hold ${formatBytes(total)}; a web.app may hold at most ${formatBytes(MAX_TOTAL_BYTES)} in all`, { path, bytes: total, limit: MAX_TOTAL_BYTES });
  }
  return app;
}

function occurrences(text: string, find: string): number {
  let count = 0;
  for (let at = text.indexOf(find); at >= 0; at = text.indexOf(find, at + 1)) count++;
  return count;
}

function listFiles(app: WebApp): string {
  const paths = Object.keys(app.files).sort();
  if (paths.length === 0) return 'no files';
  const shown = paths.slice(0, 20).join(', ');
  return paths.length > 20 ? `${shown} and ${paths.length - 20} more` : shown;
}
