import { lineDiff, type ViewBlock } from '@cowork/host';
import { fileAt, fileBytes, hasFile, isText, shortBytes, totalBytes, type WebApp, type WebFile } from './content';
import { mediaTypeOf } from './media-types';

/** The entry's first lines in a summary: enough to see the page's structure, not the whole file. */
const ENTRY_HEAD_LINES = 30;
const LINE_CHARS = 200;
/** A diff longer than this (in lines) is cut, saying how much was left out: it must fit a model's context. */
const DIFF_LINES = 400;
const FILE_DIFF_LINES = 120;

/** What a model reads: the files with sizes and types, the entry, and the entry's first lines. */
export function summarizeWebApp(app: WebApp): string {
  const paths = Object.keys(app.files).sort();
  const count = `${paths.length} file${paths.length === 1 ? '' : 's'}`;
  const entry = hasFile(app, app.entry) ? app.entry : `${app.entry} (missing)`;
  const lines = [`web.app: ${count}, ${shortBytes(totalBytes(app))} in all; entry ${entry}`];
  for (const path of paths) lines.push(`  ${path}  ${describeFile(path, app.files[path]!)}`);
  const page = fileAt(app, app.entry);
  if (page && isText(page)) {
    const head = page.text.split('\n');
    lines.push(`${app.entry}, first ${Math.min(head.length, ENTRY_HEAD_LINES)} of ${head.length} lines:`);
    lines.push(...head.slice(0, ENTRY_HEAD_LINES).map((line) => `  ${clip(line)}`));
  }
  return lines.join('\n');
}

/**
 * Per-file changes: the entry, files added, removed or renamed (same bytes under a new path), and a
 * line diff of each changed text file. Long diffs are cut with a count of what was left out.
 */
export function diffWebApps(before: WebApp, after: WebApp): string {
  const lines: string[] = [];
  if (before.entry !== after.entry) lines.push(`entry: ${before.entry} → ${after.entry}`);
  const removed = Object.keys(before.files).filter((p) => !hasFile(after, p)).sort();
  const added = Object.keys(after.files).filter((p) => !hasFile(before, p)).sort();
  const renamedTo = new Map<string, string>();
  for (const from of removed) {
    const to = added.find((p) => !renamedTo.has(p) && sameFile(before.files[from]!, after.files[p]!));
    if (to) renamedTo.set(to, from);
  }
  for (const [to, from] of renamedTo) lines.push(`renamed ${from} → ${to}`);
  const renamedFrom = new Set(renamedTo.values());
  for (const path of removed) if (!renamedFrom.has(path)) lines.push(`removed ${path} (${describeFile(path, before.files[path]!)})`);
  for (const path of added) if (!renamedTo.has(path)) lines.push(`added ${path} (${describeFile(path, after.files[path]!)})`);
  const kept = Object.keys(after.files).filter((p) => hasFile(before, p)).sort();
  for (const path of kept) {
    const was = before.files[path]!;
    const now = after.files[path]!;
    if (sameFile(was, now)) continue;
    if (isText(was) && isText(now)) {
      lines.push(`changed ${path}:`);
      lines.push(...cut(lineDiff(was.text, now.text, { maxLines: 2000 }).split('\n'), FILE_DIFF_LINES).map((line) => `  ${clip(line)}`));
    } else {
      lines.push(`changed ${path}: ${describeFile(path, was)} → ${describeFile(path, now)}`);
    }
  }
  return lines.length === 0 ? 'no changes' : cut(lines, DIFF_LINES).join('\n');
}

/** Text files up to this size are editable in the page; bigger ones are changed by ops. */
const EDITABLE_BYTES = 200 * 1024;

/**
 * The live app in a frame (the host serves each revision at /apps/:id/r/:revision/) right before
 * each text file as an editable block the person saves as a `put_file` op, entry first, so the
 * page can set the app beside the file being edited; then the table of all files.
 */
export function webAppView(app: WebApp, context: { resourceId: string; revision: number }): ViewBlock[] {
  const id = encodeURIComponent(context.resourceId);
  const rows = Object.keys(app.files)
    .sort()
    .map((path) => [path === app.entry ? `${path} (entry)` : path, shortBytes(fileBytes(app.files[path]!)), mediaTypeOf(path).split(';')[0]!]);
  return [
    { type: 'frame', url: `/apps/${id}/r/${context.revision}/`, title: `Web app ${context.resourceId}, revision ${context.revision}` },
    ...editableFiles(app),
    { type: 'table', header: ['file', 'size', 'type'], rows },
  ];
}

function editableFiles(app: WebApp): ViewBlock[] {
  const paths = Object.keys(app.files).sort((a, b) => Number(b === app.entry) - Number(a === app.entry) || a.localeCompare(b));
  return paths.flatMap((path): ViewBlock[] => {
    const file = app.files[path]!;
    if (!isText(file) || fileBytes(file) > EDITABLE_BYTES) return [];
    return [{ type: 'editable', label: path, text: file.text, op: { type: 'put_file', path }, field: 'text' }];
  });
}

function describeFile(path: string, file: WebFile): string {
  const size = shortBytes(fileBytes(file));
  if (isText(file)) {
    const lines = file.text === '' ? 0 : file.text.split('\n').length - (file.text.endsWith('\n') ? 1 : 0);
    return `${size}, ${lines} line${lines === 1 ? '' : 's'}`;
  }
  return `${size}, ${file.mediaType ?? mediaTypeOf(path)}`;
}

function sameFile(a: WebFile, b: WebFile): boolean {
  return isText(a) ? isText(b) && a.text === b.text : !isText(b) && a.base64 === b.base64 && a.mediaType === b.mediaType;
}

function cut(lines: string[], max: number): string[] {
  return lines.length <= max ? lines : [...lines.slice(0, max), `… ${lines.length - max} more lines not shown`];
}

function clip(line: string): string {
  return line.length > LINE_CHARS ? `${line.slice(0, LINE_CHARS)}…` : line;
}
