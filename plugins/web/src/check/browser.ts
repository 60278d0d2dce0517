import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoworkError } from '@cowork/host';
import { chromium, type BrowserContext } from 'playwright-core';

/** Debian's Chromium (the `chromium` package); playwright-core brings no browser of its own. */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium';

export interface CheckBrowser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Starts headless Chromium in a fresh profile that is removed on close: every check starts from a
 * browser with no cookies, storage or cache left by another app. Service workers are blocked so
 * that every request the app makes goes through the check's routes.
 */
export async function launchBrowser(options: { executablePath?: string; viewport: { width: number; height: number } }): Promise<CheckBrowser> {
  const executablePath = options.executablePath ?? DEBIAN_CHROMIUM;
  if (!existsSync(executablePath)) {
    throw new CoworkError(
      'plugin_failed',
      `Chromium is not installed at ${executablePath}: web_check drives Debian's Chromium. Install the Debian package "chromium" (apt-get install chromium, or tools/install-system-deps.sh), then retry.`,
      { plugin: 'web', action: 'web_check', executablePath, debianPackage: 'chromium' },
    );
  }
  const profile = mkdtempSync(join(tmpdir(), 'cowork-web-check-'));
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath,
      headless: true,
      viewport: options.viewport,
      serviceWorkers: 'block',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    return {
      context,
      async close() {
        await context.close().catch(() => undefined);
        rmSync(profile, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(profile, { recursive: true, force: true });
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new CoworkError('plugin_failed', `Chromium (${executablePath}) did not start: ${message}`, { plugin: 'web', action: 'web_check', executablePath }, { cause: error });
  }
}
