/** Media types by file extension, for serving an app's files and for the file list agents read. */
const BY_EXTENSION: Readonly<Record<string, string>> = {
  html: 'text/html; charset=utf-8',
  htm: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  json: 'application/json; charset=utf-8',
  map: 'application/json; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  ico: 'image/x-icon',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  otf: 'font/otf',
  wasm: 'application/wasm',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  mp4: 'video/mp4',
  webm: 'video/webm',
  pdf: 'application/pdf',
};

const FALLBACK = 'application/octet-stream';

/** The media type a browser needs for `path`, from its extension; unknown ones are plain bytes. */
export function mediaTypeOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return FALLBACK;
  return BY_EXTENSION[name.slice(dot + 1).toLowerCase()] ?? FALLBACK;
}

/** Whether files with this extension are text a person or model edits (kept as `text`, diffed by line). */
export function isTextPath(path: string): boolean {
  const type = mediaTypeOf(path);
  return type.includes('charset=utf-8') || type === 'image/svg+xml';
}

/** Whether the format is already compressed, so that a zip stores it instead of deflating it again. */
export function isCompressed(path: string): boolean {
  return /^(image\/(png|jpeg|gif|webp|avif)|font\/woff2?|audio\/|video\/)/.test(mediaTypeOf(path));
}
