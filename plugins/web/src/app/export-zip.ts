import { zipSync, type Zippable } from 'fflate';
import { fileData, type WebApp } from './content';
import { isCompressed } from './media-types';

export const ZIP_MEDIA_TYPE = 'application/zip';

/**
 * A zip of the app's files under their paths. Deterministic: entries sorted by path, every mtime
 * the same (a local-time date, because zip stores local time and fflate reads the date's local
 * fields), so one content always gives the same bytes. Images, fonts and media are stored, the
 * rest deflated.
 */
export function zipWebApp(app: WebApp): Uint8Array {
  const mtime = new Date(2000, 0, 1, 12, 0, 0);
  // No prototype: a path is only ever the app's own key (paths.ts refuses "__proto__").
  const files: Zippable = Object.create(null) as Zippable;
  for (const path of Object.keys(app.files).sort()) {
    files[path] = [fileData(app.files[path]!), { level: isCompressed(path) ? 0 : 6, mtime }];
  }
  return zipSync(files);
}
