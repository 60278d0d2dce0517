import { containedRelative, type AppFile } from '@cowork/host';
import { fileAt, fileData, isText, type WebApp } from './content';
import { mediaTypeOf } from './media-types';

/**
 * The file a browser gets for `path` (no leading slash, already URL-decoded), or undefined for a
 * 404. The app's root ('' or 'index.html') is its entry page, whatever it is called; a folder path
 * ('docs/') is that folder's index.html. Used by the host's /apps routes and by the check tool.
 */
export function appFile(app: WebApp, path: string): AppFile | undefined {
  // The host's one containment check, as a URL path: a path that would leave the app is a 404.
  if (path !== '' && !isContained(path)) return undefined;
  const wanted = path === '' || path === 'index.html' ? app.entry : path.endsWith('/') ? `${path}index.html` : path;
  const file = fileAt(app, wanted);
  if (!file) return undefined;
  if (isText(file)) return { data: file.text, mediaType: mediaTypeOf(wanted) };
  return { data: fileData(file), mediaType: file.mediaType ?? mediaTypeOf(wanted) };
}

function isContained(path: string): boolean {
  try {
    containedRelative(path, 'path', { url: true, baseName: 'the app' });
    return true;
  } catch {
    return false;
  }
}
