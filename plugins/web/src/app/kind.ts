import { defineKind } from '@cowork/host';
import { WEB_APP_SCHEMA, starterApp, type WebApp } from './content';
import { diffWebApps, summarizeWebApp, webAppView } from './describe';
import { ZIP_MEDIA_TYPE, zipWebApp } from './export-zip';
import { appFromZip } from './import-zip';
import { WEB_APP_OP_SCHEMA, applyWebAppOp, validateWebAppOp, type WebAppOp } from './ops';
import { appFile } from './serve';

/**
 * `web.app`: a small web app (HTML, JS, CSS, assets) owned by the host and served live at
 * /apps/:id/ so that people and agents open the same app; edited file by file, imported from and
 * exported to a zip.
 */
export const webAppKind = defineKind<WebApp, WebAppOp>({
  name: 'web.app',
  description:
    'A small web app: files (HTML, JS, CSS as text; images and fonts as base64) by path, and the entry page. ' +
    'Served live at /apps/<id>/. Edited by put_file, patch_file (replace one unique snippet), rename_file, ' +
    'delete_file and set_entry; imports and exports zip. Try it with the web_check tool.',
  revisionSemantics: 'host',
  contentSchema: WEB_APP_SCHEMA,
  opSchema: WEB_APP_OP_SCHEMA,
  initialContent: starterApp,
  validateOp: validateWebAppOp,
  applyOp: applyWebAppOp,
  summarize: summarizeWebApp,
  diff: diffWebApps,
  view: webAppView,
  exports: {
    zip: {
      mediaType: ZIP_MEDIA_TYPE,
      extension: 'zip',
      description: "The app's files under their paths, ready to unpack and serve.",
      export: async (content, context) => {
        context.signal.throwIfAborted();
        return zipWebApp(content);
      },
    },
  },
  imports: {
    zip: {
      extension: 'zip',
      description: "A zip of the app's files (index.html at its root, or in one folder that wraps everything).",
      import: async (data, context) => {
        context.signal.throwIfAborted();
        return appFromZip(data, context.fileName);
      },
    },
  },
  app: { file: appFile },
});
