import { rejectFile } from '@cowork/host';
import { unzipSync } from 'fflate';
import { MAX_FILES, MAX_FILE_BYTES, MAX_TOTAL_BYTES, formatBytes, type WebApp, type WebFile } from './content';
import { isTextPath } from './media-types';
import { isHtml } from './ops';
import { pathProblem } from './paths';

/** Entries a zip tool adds that are no part of an app. */
const JUNK = /(^|\/)(__MACOSX\/|\.DS_Store$|Thumbs\.db$)/;

/**
 * Builds a `web.app` from a zip of its files. Every entry is checked from the zip's directory
 * before anything is inflated: a path that would leave the app (`../x`, `/x`), a file over the
 * size limit, too many files. One folder wrapping everything (`my-app/index.html`) is unwrapped.
 * The entry is index.html, or the only HTML file.
 */
export function appFromZip(data: Uint8Array, fileName = 'the zip'): WebApp {
  const problems: string[] = [];
  let count = 0;
  let total = 0;
  let unzipped: Record<string, Uint8Array>;
  try {
    unzipped = unzipSync(data, {
      filter: (entry) => {
        if (entry.name.endsWith('/') || JUNK.test(entry.name)) return false;
        const problem = pathProblem(entry.name);
        if (problem) problems.push(`entry ${problem.replace(/^file path /, '')}`);
        else if (entry.originalSize > MAX_FILE_BYTES) {
          problems.push(`entry ${JSON.stringify(entry.name)} is ${formatBytes(entry.originalSize)}; a web.app file may be at most ${formatBytes(MAX_FILE_BYTES)}`);
        }
        count++;
        total += entry.originalSize;
        return problems.length === 0 && count <= MAX_FILES && total <= MAX_TOTAL_BYTES;
      },
    });
  } catch (error) {
    throw rejectFile(`${fileName} is not a readable zip file (${error instanceof Error ? error.message : String(error)}); export the folder again as a .zip`);
  }
  if (count > MAX_FILES) problems.push(`it holds ${count} files; a web.app may hold at most ${MAX_FILES}`);
  if (total > MAX_TOTAL_BYTES) problems.push(`its files come to ${formatBytes(total)}; a web.app may hold at most ${formatBytes(MAX_TOTAL_BYTES)} in all`);
  if (problems.length > 0) throw rejectFile(`${fileName} cannot become a web.app: ${problems.slice(0, 5).join('; ')}`, { problems: problems.slice(0, 50) });

  const paths = unwrap(Object.keys(unzipped));
  const files: Record<string, WebFile> = {};
  for (const [name, path] of paths) files[path] = asFile(path, unzipped[name]!);
  const pages = Object.keys(files).filter(isHtml).sort();
  const entry = 'index.html' in files ? 'index.html' : pages.length === 1 ? pages[0] : undefined;
  if (entry === undefined) {
    throw rejectFile(`${fileName} has no index.html at its root${pages.length > 1 ? ` and several pages (${pages.slice(0, 5).join(', ')})` : ''}; add an index.html to open first`);
  }
  return { entry, files };
}

/** [name in the zip, path in the app]: without the one folder that wraps every file, if there is one. */
function unwrap(names: string[]): [string, string][] {
  const first = names[0]?.split('/')[0];
  const wrapped = first !== undefined && names.length > 0 && names.every((n) => n.startsWith(`${first}/`));
  return names.map((name) => [name, wrapped ? name.slice(first.length + 1) : name]);
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
