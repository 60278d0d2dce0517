import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { TOKEN } from '../server/harness';

export const CHROMIUM = '/usr/bin/chromium';
/** Screenshots of the page at key steps; ignored by git, kept after the run for a person to look at. */
export const ARTIFACTS = join(__dirname, 'artifacts');

export interface TestBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Debian's Chromium in a fresh profile. A missing browser fails the suite: nothing is skipped. */
export async function launchChromium(): Promise<TestBrowser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: the web page tests drive Debian's Chromium. Run tools/install-system-deps.sh (it installs chromium), then rerun.`);
  }
  mkdirSync(ARTIFACTS, { recursive: true });
  const profile = mkdtempSync(join(tmpdir(), 'cowork-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1400, height: 1000 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Opens the page at `baseUrl` and signs in through its form, the way a person does. Records
 * every URL the page requests, so a test can check the token never went into one.
 */
export async function openSignedIn(context: BrowserContext, baseUrl: string, shot?: string, token: string = TOKEN): Promise<{ page: Page; urls: string[]; problems: string[] }> {
  await context.clearCookies();
  const page = await context.newPage();
  const urls: string[] = [];
  const problems: string[] = [];
  page.on('request', (request) => urls.push(request.url()));
  page.on('pageerror', (error) => problems.push(String(error)));
  // Failed requests the page expects (the signed-out probe, a 409 it handles) are logged by the
  // browser too; anything else logged as an error, or thrown, is a problem.
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) problems.push(message.text());
  });
  await page.goto(baseUrl);
  await page.locator('#sign-in').waitFor({ state: 'visible' });
  if (shot) await screenshot(page, shot);
  await page.fill('#token', token);
  await page.click('#sign-in-form button[type=submit]');
  await page.locator('body[data-ready="true"]').waitFor({ state: 'attached' });
  await page.locator('#live-status', { hasText: 'live' }).waitFor();
  return { page, urls, problems };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** Resolves once the textarea's value contains every one of `parts`. */
export async function textareaContains(page: Page, selector: string, parts: string[]): Promise<void> {
  const test = parts.map((p) => `v.includes(${JSON.stringify(p)})`).join(' && ');
  await page.waitForFunction(`(() => { const el = document.querySelector(${JSON.stringify(selector)}); const v = el ? el.value : ''; return ${test}; })()`);
}
