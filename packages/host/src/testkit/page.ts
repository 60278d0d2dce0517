/**
 * The page test kit (`@cowork/host/testkit/page`): drive the host's web page in Debian's Chromium
 * the way a person does, and judge it (layout, accessibility, console). A subpath of its own so the
 * runtime and the main test kit never load playwright-core or axe-core (both dev dependencies).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { createServer, type CoworkServer, type ServerOptions } from '../server/create-server';
import { openTempHost, type TempHost, type TempHostOptions } from './temp-host';

// The test runner's globals (jest, vitest): `usePageServer` declares hooks with them, it does not import one.
declare const beforeAll: (hook: () => Promise<void>, timeoutMs?: number) => void;
declare const afterAll: (hook: () => Promise<void>, timeoutMs?: number) => void;

export const CHROMIUM = '/usr/bin/chromium';
/** The token `startPageServer` serves with and `openSignedIn` signs in with, unless told otherwise. */
export const PAGE_TOKEN = 'test-token-0123456789abcdef';

export interface PageBrowser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/** Debian's Chromium in a fresh profile. A missing browser throws (says how to install it): nothing is skipped. */
export async function launchChromium(viewport: { width: number; height: number } = { width: 1400, height: 1000 }): Promise<PageBrowser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: the web page tests drive Debian's Chromium. Run tools/install-system-deps.sh (it installs chromium), then rerun.`);
  }
  const profile = mkdtempSync(join(tmpdir(), 'cowork-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport,
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

export interface PageServer {
  readonly host: TempHost;
  readonly server: CoworkServer;
  /** The page's URL, `http://127.0.0.1:PORT`. */
  readonly baseUrl: string;
  readonly token: string;
  /** Failures the server reported that no request waited for (a 500's cause). */
  readonly errors: unknown[];
  /** One authenticated JSON request to the API (an agent's or a script's side of a test); rejects on a status >= 400 with the body. */
  api<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T>;
  dispose(): Promise<void>;
}

/**
 * A listening server with the page over a fresh temporary host:
 * `const server = await startPageServer({ plugins: [plugin] })`, then `await server.dispose()`.
 */
export type PageServerOptions = TempHostOptions & { readonly server?: Partial<Omit<ServerOptions, 'host'>>; readonly token?: string };

export async function startPageServer(options: PageServerOptions = {}): Promise<PageServer> {
  const { server: serverOptions = {}, token = PAGE_TOKEN, ...hostOptions } = options;
  const host = await openTempHost(hostOptions);
  const errors: unknown[] = [];
  let server: CoworkServer;
  let baseUrl: string;
  try {
    server = await createServer({ host, token, port: 0, onError: (e) => errors.push(e), ...serverOptions, live: { heartbeatMs: 0, ...serverOptions.live } });
    baseUrl = (await server.listen()).url;
  } catch (error) {
    await host.dispose();
    throw error;
  }
  return {
    host,
    server,
    baseUrl,
    token,
    errors,
    async api<T>(method: string, path: string, body?: unknown): Promise<T> {
      const headers: Record<string, string> = { authorization: `Bearer ${token}` };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const response = await fetch(new URL(path, baseUrl), { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${text}`);
      return (text ? JSON.parse(text) : null) as T;
    },
    async dispose() {
      await server.close();
      await host.dispose();
    },
  };
}

export interface PageSuite {
  readonly browser: PageBrowser;
  readonly server: PageServer;
  /**
   * A new tab signed in to the server's page through its form (`openSignedIn` with its URL and
   * token); with `resourceId`, that resource then opened from the list, as a person opens it.
   */
  signIn(resourceId?: string): Promise<SignedInPage>;
}

/**
 * Chromium and a page server (`startPageServer(options)`) for one test file, started before its
 * tests and stopped after them: `const t = usePageServer({ plugins: [plugin] })` at the top, then
 * `t.server`, `t.browser` and `await t.signIn()` inside tests (set once the hooks have run, so read
 * them there rather than destructuring `t`).
 */
export function usePageServer(options: PageServerOptions = {}): PageSuite {
  let browser: PageBrowser | undefined;
  let server: PageServer | undefined;
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} is not started: use it inside a test, after usePageServer's beforeAll`);
    return value;
  };
  beforeAll(async () => {
    browser = await launchChromium();
    server = await startPageServer(options);
  });
  afterAll(async () => {
    await server?.dispose();
    await browser?.close();
  });
  return {
    get browser() {
      return started(browser, 'Chromium');
    },
    get server() {
      return started(server, 'The page server');
    },
    async signIn(resourceId) {
      const { baseUrl, token } = started(server, 'The page server');
      const signedIn = await openSignedIn(started(browser, 'Chromium').context, baseUrl, undefined, token);
      if (resourceId !== undefined) {
        await signedIn.page.click(`button[data-resource-id="${resourceId}"]`);
        // A fresh tab shows no other resource: its editor, view or JSON or text, is this one's.
        await signedIn.page.locator('#editor-view, #editor-json, #editor-text').first().waitFor();
      }
      return signedIn;
    },
  };
}

export interface SignedInPage {
  readonly page: Page;
  /** Every URL the page requested (to check the token never went into one). */
  readonly urls: string[];
  /** Uncaught errors and console errors, other than failed requests the page handles. */
  readonly problems: string[];
}

/**
 * Opens the page at `baseUrl` and signs in through its form, the way a person does. `shot`
 * screenshots the sign-in form first.
 */
export async function openSignedIn(context: BrowserContext, baseUrl: string, shot?: { readonly name: string; readonly dir: string }, token: string = PAGE_TOKEN): Promise<SignedInPage> {
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
  if (shot) await screenshot(page, shot.name, shot.dir);
  await page.fill('#token', token);
  await page.click('#sign-in-form button[type=submit]');
  await page.locator('body[data-ready="true"]').waitFor({ state: 'attached' });
  await page.locator('#live-status', { hasText: 'live' }).waitFor();
  return { page, urls, problems };
}

/** A full-page PNG at `<dir>/<name>.png` (the folder is made); keep `dir` out of git and out of build outputs. */
export async function screenshot(page: Page, name: string, dir: string): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/**
 * Text a person cannot read whole, judged from element boxes: visible text of two elements (neither
 * inside the other) overlapping, text wider than its box (`scrollWidth > clientWidth`, unless the box
 * scrolls), and a page wider than the window. Returns one description per problem; empty is good.
 */
export async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(LAYOUT_PROBLEMS_SOURCE) as Promise<string[]>;
}

// Plain JavaScript run in the page (a string, so the compiler does not rewrite it for Node).
const LAYOUT_PROBLEMS_SOURCE = `(() => {
  const problems = [];
  const name = (el) => {
    const id = el.id ? '#' + el.id : '';
    const cls = typeof el.className === 'string' && el.className.trim() ? '.' + el.className.trim().split(/\\s+/).join('.') : '';
    const text = (el.innerText || el.value || el.getAttribute('aria-label') || '').trim().replace(/\\s+/g, ' ').slice(0, 40);
    return el.tagName.toLowerCase() + id + cls + (text ? ' "' + text + '"' : '');
  };
  const visible = (el) => {
    // checkVisibility also sees what a closed <details> or content-visibility hides.
    if (el.closest('[hidden]') || (el.checkVisibility && !el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }))) return false;
    const style = getComputedStyle(el);
    if (style.display === 'none' || style.visibility === 'hidden' || Number(style.opacity) === 0) return false;
    const rect = el.getBoundingClientRect();
    return rect.width > 0 && rect.height > 0;
  };
  const CONTROLS = new Set(['INPUT', 'TEXTAREA', 'SELECT', 'BUTTON']);
  // The box of an element's own text (its text nodes' ranges), or the control's box.
  const textBoxes = [];
  for (const el of document.body.querySelectorAll('*')) {
    if (['SCRIPT', 'STYLE', 'CANVAS', 'IFRAME', 'SVG', 'OPTION'].includes(el.tagName) || !visible(el)) continue;
    if (CONTROLS.has(el.tagName)) {
      if (el.type !== 'hidden') textBoxes.push({ el, rect: el.getBoundingClientRect() });
      continue;
    }
    if (el.closest('button, select')) continue;
    const own = [...el.childNodes].filter((n) => n.nodeType === 3 && n.textContent.trim() !== '');
    if (own.length === 0) continue;
    const range = document.createRange();
    for (const node of own) {
      range.selectNodeContents(node);
      for (const rect of range.getClientRects()) if (rect.width > 0 && rect.height > 0) textBoxes.push({ el, rect });
    }
  }
  const seen = new Set();
  for (let i = 0; i < textBoxes.length; i++) {
    for (let j = i + 1; j < textBoxes.length; j++) {
      const a = textBoxes[i];
      const b = textBoxes[j];
      if (a.el === b.el || a.el.contains(b.el) || b.el.contains(a.el)) continue;
      const x = Math.min(a.rect.right, b.rect.right) - Math.max(a.rect.left, b.rect.left);
      const y = Math.min(a.rect.bottom, b.rect.bottom) - Math.max(a.rect.top, b.rect.top);
      if (x <= 2 || y <= 2) continue;
      const key = name(a.el) + ' | ' + name(b.el);
      if (seen.has(key)) continue;
      seen.add(key);
      problems.push('overlap: ' + name(a.el) + ' and ' + name(b.el));
    }
  }
  for (const el of document.body.querySelectorAll('*')) {
    if (['INPUT', 'TEXTAREA', 'SELECT', 'CANVAS', 'IFRAME'].includes(el.tagName) || !visible(el)) continue;
    if (!(el.innerText || '').trim()) continue;
    const style = getComputedStyle(el);
    if (el.clientWidth === 0 || style.display === 'inline') continue;
    const scrolls = (v) => v === 'auto' || v === 'scroll';
    if (el.scrollWidth > el.clientWidth + 1 && !scrolls(style.overflowX)) problems.push('cut off (wider than its box: ' + el.scrollWidth + ' > ' + el.clientWidth + '): ' + name(el));
    else if (el.scrollHeight > el.clientHeight + 1 && (style.overflowY === 'hidden' || style.overflowY === 'clip')) problems.push('cut off (taller than its box): ' + name(el));
  }
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth + 1) problems.push('the page is wider than the window: ' + root.scrollWidth + ' > ' + root.clientWidth);
  return problems;
})()`;

/** A laptop screen and a phone held upright: the sizes the page must read well at. */
export const STANDARD_VIEWPORTS: readonly { readonly width: number; readonly height: number }[] = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

/**
 * At each size: `check` (if given: what it returns counts as problems too), a screenshot
 * `<dir>/<name>-<W>x<H>.png`, then `layoutProblems` and `axeViolations`, each prefixed with the
 * size. Empty is good. Leaves the page at the last size.
 */
export async function problemsAtSizes(page: Page, name: string, dir: string, viewports = STANDARD_VIEWPORTS, check?: (page: Page) => Promise<string[]>): Promise<string[]> {
  const problems: string[] = [];
  for (const { width, height } of viewports) {
    await page.setViewportSize({ width, height });
    const found = check ? await check(page) : [];
    await screenshot(page, `${name}-${width}x${height}`, dir);
    for (const problem of [...found, ...(await layoutProblems(page)), ...(await axeViolations(page))]) problems.push(`${width}x${height}: ${problem}`);
  }
  return problems;
}

/** Where plugins' editor screenshots go by default: the temp folder, out of the repo and its build outputs. */
export const EDITOR_SHOTS = join(tmpdir(), 'cowork-editor-shots');

/**
 * Judges a kind's editor (the open resource's view) as a person sees it, at 1280x800 and 390x844:
 * every picture in it loaded (`brokenPictures`), a screenshot `<dir>/<name>-<W>x<H>.png`, no text
 * cut off or overlapping (`layoutProblems`) and no serious or critical axe violations. Returns the
 * problems, each prefixed with the size; empty is good.
 */
export function judgeEditor(page: Page, name: string, dir: string = EDITOR_SHOTS): Promise<string[]> {
  return problemsAtSizes(page, name, dir, STANDARD_VIEWPORTS, brokenPictures);
}

/**
 * Pictures in the editor (`#editor-view img`) that failed to load or took over `timeoutMs` (slide
 * pictures come from LibreOffice, which can take a while). Each is scrolled to first: they load lazily.
 */
export async function brokenPictures(page: Page, timeoutMs = 60_000): Promise<string[]> {
  for (const img of await page.locator('#editor-view img').all()) await img.scrollIntoViewIfNeeded();
  // A string run as the page's own code (its CSP allows no eval, which waitForFunction needs).
  const widths = (await page.evaluate(`Promise.all([...document.querySelectorAll('#editor-view img')].map((img) => img.complete ? [img.naturalWidth, img.alt]
    : new Promise((done) => { img.addEventListener('load', () => done([img.naturalWidth, img.alt])); img.addEventListener('error', () => done([0, img.alt])); setTimeout(() => done([0, img.alt]), ${timeoutMs}); })))`)) as [number, string][];
  return widths.flatMap(([width, alt], i) => (width > 0 ? [] : [`picture ${i + 1} ("${alt}") did not load`]));
}

/**
 * Runs axe-core (the npm package's axe.min.js, put into the page through the debugger, so the page's
 * CSP needs no exception) and returns its serious and critical violations, one line each.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  if ((await page.evaluate('typeof window.axe')) === 'undefined') await page.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
  const result = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] })`)) as {
    violations: { id: string; impact?: string | null; help: string; nodes: { target: unknown[]; failureSummary?: string }[] }[];
  };
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
}

export interface ControlBox {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/**
 * The open editor's controls that have a stable key (`data-focus-key`: fields, actions, a group's
 * Select), each with its box where a person sees it (viewport coordinates), and the focused one's key.
 */
export async function editorControls(page: Page): Promise<{ boxes: Record<string, ControlBox>; focused: string | null }> {
  return page.evaluate(`(() => {
    const boxes = {};
    for (const el of document.querySelectorAll('#editor-view [data-focus-key]')) {
      const r = el.getBoundingClientRect();
      boxes[el.dataset.focusKey] = { x: r.x, y: r.y, width: r.width, height: r.height };
    }
    const active = document.activeElement;
    return { boxes, focused: active && active.dataset && active.dataset.focusKey ? active.dataset.focusKey : null };
  })()`) as Promise<{ boxes: Record<string, ControlBox>; focused: string | null }>;
}

/**
 * Whether controls jump when someone else's revision arrives: `arrive()` commits it and resolves once
 * the page shows it; `changed` is where it shows (the new slide, the new feature). Every control above
 * that point, and the focused control, must keep its box, right after the revision shows and again
 * after `settle()` (by default `editorSettled`: the new revision's pictures and models loaded). Returns one line per
 * control that moved or went; empty is good. Throws if no control was above the point (nothing judged).
 */
export async function shiftsOnArrival(page: Page, arrive: () => Promise<void>, changed: Locator, settle: () => Promise<void> = () => editorSettled(page)): Promise<string[]> {
  await editorSettled(page);
  const before = await editorControls(page);
  await arrive();
  const point = (await changed.boundingBox())?.y;
  if (point === undefined) throw new Error('the changed element is not shown after the revision arrived');
  const judged = Object.entries(before.boxes).filter(([key, box]) => box.y + box.height <= point || key === before.focused);
  if (judged.length === 0) throw new Error('no control was above the point of change: nothing to judge');
  const problems: string[] = [];
  const compare = async (when: string) => {
    const now = (await editorControls(page)).boxes;
    for (const [key, box] of judged) {
      const after = now[key];
      const moved = !after || (['x', 'y', 'width', 'height'] as const).some((side) => Math.abs(after[side] - box[side]) > 0.5);
      if (moved) problems.push(`${when}: ${key}${key === before.focused ? ' (focused)' : ''} ${after ? `moved from ${JSON.stringify(box)} to ${JSON.stringify(after)}` : 'went'}`);
    }
  };
  await compare('when the revision showed');
  await settle();
  await compare('once it settled');
  return problems;
}

/**
 * Resolves once the editor's pictures a person can see now (in the window) have loaded (a broken one never does) and its 3D
 * models are drawn (or have failed): what a revision's arrival changes after it shows. Rejects after `timeoutMs`.
 */
export async function editorSettled(page: Page, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const check = `(() => {
    const seen = (el) => { const r = el.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth; };
    const pictures = [...document.querySelectorAll('#editor-view img')].filter(seen).every((img) => img.complete && img.naturalWidth > 0);
    const models = [...document.querySelectorAll('#editor-view figure.model-view')].every((f) => f.dataset.state !== 'loading');
    return pictures && models;
  })()`;
  while (!(await page.evaluate(check))) {
    if (Date.now() > deadline) throw new Error(`the editor's pictures and models did not load in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Presses Tab (as a person does, from wherever the focus is) until `target` has the focus; throws if
 * it is not reached in `maxPresses`. Resolves with how many presses it took.
 */
export async function tabTo(page: Page, target: Locator, maxPresses = 200): Promise<number> {
  for (let presses = 1; presses <= maxPresses; presses++) {
    await page.keyboard.press('Tab');
    // A function (not a string, which would be evaluated as an expression); its DOM types are not compiled here.
    if (await target.evaluate((el) => el === (el as unknown as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement)) return presses;
  }
  throw new Error(`Tab did not reach ${target} in ${maxPresses} presses`);
}

/** The focused element's computed outline (style, width): what shows a keyboard user where they are. */
export async function focusOutline(page: Page): Promise<{ style: string; width: number }> {
  return page.evaluate(`(() => { const s = getComputedStyle(document.activeElement); return { style: s.outlineStyle, width: parseFloat(s.outlineWidth) || 0 }; })()`) as Promise<{ style: string; width: number }>;
}

/**
 * Imports `file` as `kind` through the page's import form, as a person does, and resolves once the
 * new resource is open (its title, the file's name without the extension, shown).
 */
export async function importThroughPage(page: Page, kind: string, file: { readonly name: string; readonly data: Uint8Array }): Promise<void> {
  await page.selectOption('#import-kind', kind);
  await page.setInputFiles('#import-file', { name: file.name, mimeType: 'application/octet-stream', buffer: Buffer.from(file.data) });
  await page.click('#import-submit');
  await page.locator('#editor-title', { hasText: file.name.replace(/\.[^.]*$/, '') }).waitFor();
}
