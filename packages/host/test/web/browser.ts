import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import * as kit from '../../src/testkit/page';
import { TOKEN } from '../server/harness';

export { axeViolations, CHROMIUM, launchChromium, layoutProblems, usePageServer, type PageBrowser as TestBrowser } from '../../src/testkit/page';

/** Screenshots of the page at key steps; ignored by git, kept after the run for a person to look at. */
export const ARTIFACTS = join(__dirname, 'artifacts');

/** The kit's `openSignedIn` with the harness's token, its sign-in screenshot (if named) kept in ARTIFACTS. */
export function openSignedIn(context: BrowserContext, baseUrl: string, shot?: string, token: string = TOKEN): Promise<kit.SignedInPage> {
  return kit.openSignedIn(context, baseUrl, shot === undefined ? undefined : { name: shot, dir: ARTIFACTS }, token);
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await kit.screenshot(page, name, ARTIFACTS);
}

/** Resolves once the textarea's value contains every one of `parts`. */
export async function textareaContains(page: Page, selector: string, parts: string[]): Promise<void> {
  const test = parts.map((p) => `v.includes(${JSON.stringify(p)})`).join(' && ');
  await page.waitForFunction(`(() => { const el = document.querySelector(${JSON.stringify(selector)}); const v = el ? el.value : ''; return ${test}; })()`);
}
