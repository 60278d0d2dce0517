import { containedRelative } from '@cowork/host';
import type { BrowserContext } from 'playwright-core';
import type { WebApp } from '../app/content';
import { appFile } from '../app/serve';

/**
 * The origin the checked app is served from inside the browser. `.invalid` never resolves, so the
 * page cannot reach anything by accident; every request is answered here, from the revision's
 * files, exactly as the host's /apps route answers them (both use `appFile`).
 */
export const APP_ORIGIN = 'http://app.cowork.invalid';

/**
 * The sandbox the host's /apps routes serve an app under (an opaque origin: no cookies, no
 * localStorage), so that an app behaves in the check as it does for the people who open it.
 */
const SANDBOX = 'sandbox allow-scripts allow-forms allow-modals';

/** Serves `app` at APP_ORIGIN in `context` and blocks every other request, reporting it to `onBlocked`. */
export async function serveApp(context: BrowserContext, app: WebApp, onBlocked: (url: string) => void): Promise<void> {
  await context.route('**/*', async (route) => {
    const url = new URL(route.request().url());
    if (url.origin !== APP_ORIGIN) {
      onBlocked(url.href);
      await route.abort('blockedbyclient');
      return;
    }
    const path = filePath(url.pathname);
    const file = path === undefined ? undefined : appFile(app, path);
    if (!file) {
      await route.fulfill({ status: 404, contentType: 'text/plain; charset=utf-8', body: `no file ${url.pathname} in this app` });
      return;
    }
    await route.fulfill({
      status: 200,
      contentType: file.mediaType,
      headers: { 'content-security-policy': SANDBOX, 'cache-control': 'no-store' },
      body: typeof file.data === 'string' ? file.data : Buffer.from(file.data),
    });
  });
  await context.routeWebSocket(/.*/, (socket) => {
    onBlocked(socket.url());
    void socket.close({ code: 1008, reason: 'a checked app may not open connections' });
  });
}

/** The app path of a URL path (`/js/app.js` → `js/app.js`), or undefined when it cannot be one. */
function filePath(pathname: string): string | undefined {
  let path: string;
  try {
    path = decodeURIComponent(pathname.slice(1));
  } catch {
    return undefined;
  }
  if (path === '') return path;
  // The host's one containment check (as a URL path); appFile checks again.
  try {
    containedRelative(path, 'path', { url: true, baseName: 'the app' });
  } catch {
    return undefined;
  }
  return path.split('/').some((segment) => segment === '..') ? undefined : path;
}
