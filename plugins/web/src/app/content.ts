/**
 * The content of a `web.app` resource: a small set of files (HTML, JS, CSS, assets) keyed by their
 * path inside the app, and the entry page. Text files are kept as text so that agents can patch
 * and diff them line by line; other files are base64.
 *
 * Size limits sit well under the host's content cap (8 MB of JSON), so that an oversized file is
 * refused by the kind with a message naming the file, its size and the limit.
 */
import { PATH_PATTERN, PATH_SCHEMA } from './paths';

export type TextFile = { text: string };
export type BinaryFile = { base64: string; mediaType?: string };
export type WebFile = TextFile | BinaryFile;

export type WebApp = {
  /** The page opened at the app's root; always one of `files`, an HTML file. */
  entry: string;
  files: { [path: string]: WebFile };
};

export const MAX_FILES = 200;
export const MAX_FILE_BYTES = 1024 * 1024;
export const MAX_TOTAL_BYTES = 4 * 1024 * 1024;

/** Standard base64, padded: what `Buffer.from(s, 'base64')` decodes without silently dropping characters. */
export const BASE64_PATTERN = '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$';
/** A media type as a Content-Type header may carry it (printable ASCII only: no header injection). */
export const MEDIA_TYPE_PATTERN = '^[A-Za-z0-9!#$&^_.+-]+/[A-Za-z0-9!#$&^_.+-]+(?:;[ -~]*)?$';

const BASE64_REGEX = new RegExp(BASE64_PATTERN);
const MEDIA_TYPE_REGEX = new RegExp(MEDIA_TYPE_PATTERN);

export const WEB_FILE_SCHEMA = {
  oneOf: [
    { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
    {
      type: 'object',
      properties: { base64: { type: 'string', pattern: BASE64_PATTERN }, mediaType: { type: 'string', maxLength: 100, pattern: MEDIA_TYPE_PATTERN } },
      required: ['base64'],
      additionalProperties: false,
    },
  ],
} as const;

export const WEB_APP_SCHEMA = {
  type: 'object',
  properties: {
    entry: PATH_SCHEMA,
    files: {
      type: 'object',
      propertyNames: { maxLength: PATH_SCHEMA.maxLength, pattern: PATH_PATTERN },
      maxProperties: MAX_FILES,
      additionalProperties: WEB_FILE_SCHEMA,
    },
  },
  required: ['entry', 'files'],
  additionalProperties: false,
} as const;

export const STARTER_HTML = '<!doctype html>\n<html>\n<head>\n<meta charset="utf-8">\n<title>New app</title>\n</head>\n<body>\n</body>\n</html>\n';

export function starterApp(): WebApp {
  return { entry: 'index.html', files: { 'index.html': { text: STARTER_HTML } } };
}

/**
 * The file at `path`, or undefined. Contents are plain objects (parsed JSON), so `files[path]` and
 * `path in files` would find Object.prototype's members for paths like "constructor" or "toString":
 * every lookup by a path someone chose goes through here.
 */
export function fileAt(app: WebApp, path: string): WebFile | undefined {
  return Object.hasOwn(app.files, path) ? app.files[path] : undefined;
}

export function hasFile(app: WebApp, path: string): boolean {
  return Object.hasOwn(app.files, path);
}

export function isText(file: WebFile): file is TextFile {
  return 'text' in file;
}

/** The file's size in bytes as served: UTF-8 for text, decoded for base64. */
export function fileBytes(file: WebFile): number {
  if (isText(file)) return Buffer.byteLength(file.text, 'utf8');
  const padding = file.base64.endsWith('==') ? 2 : file.base64.endsWith('=') ? 1 : 0;
  return Math.floor((file.base64.length * 3) / 4) - padding;
}

/** The file's bytes as served. */
export function fileData(file: WebFile): Uint8Array {
  const buffer = isText(file) ? Buffer.from(file.text, 'utf8') : Buffer.from(file.base64, 'base64');
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

export function totalBytes(app: WebApp): number {
  return Object.values(app.files).reduce((sum, file) => sum + fileBytes(file), 0);
}

/** Problems with one file on its own: a base64 that is not, a media type on text, a size over the limit. */
export function fileProblems(path: string, file: { text?: unknown; base64?: unknown; mediaType?: unknown }): string[] {
  const shown = JSON.stringify(path);
  const hasText = typeof file.text === 'string';
  const hasBase64 = typeof file.base64 === 'string';
  if (hasText === hasBase64) return [`file ${shown} needs exactly one of text (for text files) or base64 (for other files)`];
  if (hasText && file.mediaType !== undefined) return [`file ${shown} is text: its media type comes from its extension; drop mediaType`];
  // The size first: a 50 MB file is refused without scanning it.
  const bytes = fileBytes(file as WebFile);
  if (bytes > MAX_FILE_BYTES) {
    return [`file ${shown} is ${formatBytes(bytes)}; a web.app file may be at most ${formatBytes(MAX_FILE_BYTES)}. Make it smaller (compress the image, split the script) or leave it out`];
  }
  if (hasBase64 && !BASE64_REGEX.test(file.base64 as string)) return [`file ${shown}: base64 is not standard padded base64 (A-Z a-z 0-9 + / and = padding)`];
  if (file.mediaType !== undefined && (typeof file.mediaType !== 'string' || !MEDIA_TYPE_REGEX.test(file.mediaType))) {
    return [`file ${shown}: mediaType ${JSON.stringify(file.mediaType)} is not a media type like "image/png"`];
  }
  return [];
}

/** "52,428,800 bytes (50.0 MiB)": exact for the reader who compares, rounded for the one who skims. */
export function formatBytes(bytes: number): string {
  const exact = `${bytes.toLocaleString('en-US')} bytes`;
  return bytes < 1024 ? exact : `${exact} (${shortBytes(bytes)})`;
}

/** "1.2 KiB": the short form for file lists. */
export function shortBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}
