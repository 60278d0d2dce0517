import { rejectFile } from '@cowork/host';
import { MAX_FILES, MAX_FILE_BYTES, MAX_TOTAL_BYTES, formatBytes, type WebApp, type WebFile } from './content';
import { isTextPath } from './media-types';
import { isHtml } from './ops';
import { pathProblem } from './paths';
import { SafeZip, ZipFormatError, type ZipEntry } from '@cowork/host';

/** Entries a zip tool adds that are no part of an app. */
const JUNK = /(^|\/)(__MACOSX\/|\.DS_Store$|Thumbs\.db$)/;

/**
 * Builds a `web.app` from a zip of its files. Every entry is checked from the zip's directory
 * before anything is inflated: a path that would leave the app (`../x`, `/x`) or that an object
 * cannot hold (`__proto__`), a file over the size limit, too many files. Then the files are
 * inflated off the main thread by SafeZip, which refuses any whose real size or checksum differs
 * from its header, so no header can make the import build more than the limits allow. One folder
 * wrapping everything (`my-app/index.html`) is unwrapped. The entry is index.html, or the only HTML file.
 */
export async function appFromZip(data: Uint8Array, fileName = 'the zip'): Promise<WebApp> {
  let zip: SafeZip;
  try {
    zip = SafeZip.open(data, { maxEntryBytes: MAX_FILE_BYTES, maxTotalBytes: MAX_TOTAL_BYTES }, fileName);
  } catch (error) {
    if (!(error instanceof ZipFormatError)) throw error;
    throw rejectFile(`${fileName} is not a readable zip file (${error.message}); export the folder again as a .zip`);
  }
  const entries = zip.entries.filter((entry) => !entry.name.endsWith('/') && !JUNK.test(entry.name));
  const problems = entryProblems(entries);
  if (problems.length > 0) throw rejectFile(`${fileName} cannot become a web.app: ${problems.slice(0, 5).join('; ')}`, { problems: problems.slice(0, 50) });

  const paths = unwrap(entries.map((entry) => entry.name));
  const contents = await Promise.all(entries.map((entry) => zip.read(entry)));
  // fromEntries defines own properties, so even a path like "constructor" is stored as a plain key.
  const files: Record<string, WebFile> = Object.fromEntries(paths.map((path, i) => [path, asFile(path, contents[i]!)]));
  const pages = paths.filter(isHtml).sort();
  const entry = paths.includes('index.html') ? 'index.html' : pages.length === 1 ? pages[0] : undefined;
  if (entry === undefined) {
    throw rejectFile(`${fileName} has no index.html at its root${pages.length > 1 ? ` and several pages (${pages.slice(0, 5).join(', ')})` : ''}; add an index.html to open first`);
  }
  return { entry, files };
}

/** What keeps the entries from being an app, from their declared sizes (SafeZip holds them to those). */
function entryProblems(entries: readonly ZipEntry[]): string[] {
  const problems: string[] = [];
  let total = 0;
  for (const entry of entries) {
    const problem = pathProblem(entry.name);
    if (problem) problems.push(`entry ${problem.replace(/^file path /, '')}`);
    else if (entry.size > MAX_FILE_BYTES) {
      problems.push(`entry ${JSON.stringify(entry.name)} is ${formatBytes(entry.size)}; a web.app file may be at most ${formatBytes(MAX_FILE_BYTES)}`);
    }
    total += entry.size;
  }
  if (entries.length > MAX_FILES) problems.push(`it holds ${entries.length} files; a web.app may hold at most ${MAX_FILES}`);
  if (total > MAX_TOTAL_BYTES) problems.push(`its files come to ${formatBytes(total)}; a web.app may hold at most ${formatBytes(MAX_TOTAL_BYTES)} in all`);
  return problems;
}

/** The paths in the app: the names without the one folder that wraps every file, if there is one. */
function unwrap(names: string[]): string[] {
  const first = names[0]?.split('/')[0];
  const wrapped = first !== undefined && names.length > 0 && names.every((n) => n.startsWith(`${first}/`));
  return wrapped ? names.map((name) => name.slice(first.length + 1)) : names;
}

function asFile(path: string, data: Uint8Array): WebFile {
  if (isTextPath(path)) {
    try {
      return { text: new TextDecoder('utf-8', { fatal: true }).decode(data) };
    } catch {
      // Not UTF-8 after all: keep the bytes as they are.
    }
  }
  return { base64: Buffer.from(data).toString('base64') };
}
