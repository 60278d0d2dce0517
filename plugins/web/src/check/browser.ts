import { existsSync } from 'node:fs';
import { CoworkError } from '@cowork/host';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';

/** Debian's Chromium (the `chromium` package); playwright-core brings no browser of its own. */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium';

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export interface CheckBrowser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

export interface BrowserOptions {
  readonly executablePath?: string;
  readonly viewport: { width: number; height: number };
}

/**
 * A fresh browser context for one check: its own cookies, storage and cache, nothing left by
 * another app (a Playwright context is an incognito profile). Service workers are blocked so that
 * every request the app makes goes through the check's routes.
 */
async function newCheckContext(browser: Browser, viewport: BrowserOptions['viewport']): Promise<BrowserContext> {
  return browser.newContext({ viewport, serviceWorkers: 'block' });
}

/** Starts headless Chromium for one check and closes it with the check. */
export async function launchBrowser(options: BrowserOptions): Promise<CheckBrowser> {
  const browser = await startChromium(options.executablePath ?? DEBIAN_CHROMIUM);
  try {
    const context = await newCheckContext(browser, options.viewport);
    return { context, close: () => browser.close().catch(() => undefined) };
  } catch (error) {
    await browser.close().catch(() => undefined);
    throw error;
  }
}

/**
 * Debian's Chromium kept running while a host uses the web plugin (its `start` and `close`), so
 * that only the first check pays the browser's start (about 0.25 s), not every one. It starts on
 * the first check, not with the host: a server that never checks an app runs no browser. Each check
 * still gets a fresh context. With no host holding it, or for another executable, a check starts
 * its own browser. A browser that crashed or was closed is started again by the next check.
 */
export class SharedChromium {
  private users = 0;
  private browser: Promise<Browser> | undefined;

  acquire(): void {
    this.users++;
  }

  async release(): Promise<void> {
    this.users = Math.max(0, this.users - 1);
    if (this.users > 0) return;
    const browser = this.browser;
    this.browser = undefined;
    await (await browser?.catch(() => undefined))?.close().catch(() => undefined);
  }

  /** Whether a shared browser is running now. */
  async isRunning(): Promise<boolean> {
    return (await this.browser?.catch(() => undefined))?.isConnected() ?? false;
  }

  async open(options: BrowserOptions): Promise<CheckBrowser> {
    const executablePath = options.executablePath ?? DEBIAN_CHROMIUM;
    if (this.users === 0 || executablePath !== DEBIAN_CHROMIUM) return launchBrowser(options);
    const context = await newCheckContext(await this.running(), options.viewport);
    return { context, close: () => context.close().catch(() => undefined) };
  }

  private async running(): Promise<Browser> {
    const current = await this.browser?.catch(() => undefined);
    if (current?.isConnected()) return current;
    const starting = startChromium(DEBIAN_CHROMIUM);
    this.browser = starting;
    starting.catch(() => {
      if (this.browser === starting) this.browser = undefined;
    });
    return starting;
  }
}

let shared: SharedChromium | undefined;

/** The process's one shared Chromium. */
export function sharedChromium(): SharedChromium {
  shared ??= new SharedChromium();
  return shared;
}

async function startChromium(executablePath: string): Promise<Browser> {
  if (!existsSync(executablePath)) {
    throw new CoworkError(
      'plugin_failed',
      `Chromium is not installed at ${executablePath}: web_check drives Debian's Chromium. Install the Debian package "chromium" (apt-get install chromium, or tools/install-system-deps.sh), then retry.`,
      { plugin: 'web', action: 'web_check', executablePath, debianPackage: 'chromium' },
    );
  }
  try {
    return await chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new CoworkError('plugin_failed', `Chromium (${executablePath}) did not start: ${message}`, { plugin: 'web', action: 'web_check', executablePath }, { cause: error });
  }
}
