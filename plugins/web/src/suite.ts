import { join } from 'node:path';
import { SafeZip, defineSuite, jsonEqual, runCalls, type CheckVerdict, type Json, type ResourceRecord, type SuiteCheck, type SuiteCheckContext } from '@cowork/host';
import type { Page } from 'playwright-core';
import { MAX_FILE_BYTES, MAX_TOTAL_BYTES, fileAt, fileData, isText, type WebApp } from './app/content';
import { APP_ORIGIN, serveApp } from './check/app-routes';
import { sharedChromium } from './check/browser';
import type { CheckResult } from './check/run-check';
import type { Step } from './check/steps';

type Viewport = { width: number; height: number };

/**
 * The web suite: what people ask an agent to do with a small web app (fix a bug, add a feature,
 * build a page from nothing, refactor files, get it ready for a static host, make it fit a phone,
 * have a subagent style it). Its checks judge the final app as a person would: they try it in
 * Chromium through `web_check` (every step passes, no console errors), measure its layout in
 * Chromium at a given screen size, read its files and entry page, and unpack its zip export; and
 * they read the run (the agent tried the app on its final revision, accepted a subagent's draft).
 */
export const webSuite = defineSuite({
  name: 'web',
  description: 'Web apps (web.app): fix, extend, build, refactor and lay out small apps; judged in Chromium (web_check, layout), by their files and by their zip export.',
  dir: join(__dirname, '..', 'suite'),
  checks: {
    /**
     * `web_check` in Chromium with the task's steps: every step passes and the page logs no error. It stops at
     * the first failure, as a person trying the app would (the steps after it would fail because of it).
     */
    app_check: async (context, args) => {
      const { resource, steps, viewport } = args as { resource: string; steps: Step[]; viewport?: Viewport };
      const record = resourceOf(context, resource);
      const { content, isError } = await context.runTool('web_check', { resourceId: record.id, steps, stopOnFailure: true, ...(viewport ? { viewport } : {}) } as Json);
      if (isError) throw new Error(`web_check could not try ${resource}: ${JSON.stringify(content)}`);
      const result = content as unknown as CheckResult;
      const problems: string[] = [
        ...(result.load.ok ? [] : [result.load.error ?? 'the app did not load']),
        ...result.steps.filter((s) => !s.ok && !s.skipped).map((s) => `step ${s.index} (${s.action}) failed: ${s.error ?? 'no reason given'}`),
      ];
      // An uncaught error is in the load's or the step's reason already: each other page error once.
      for (const e of result.consoleErrors) if (!problems.some((p) => p.includes(e.text))) problems.push(`console error${e.step > 0 ? ` at step ${e.step}` : ' while loading'}: ${e.text}`);
      if (result.passed && problems.length === 0) return verdict(true, `${resource} passed all ${steps.length} steps in Chromium with no console errors`);
      return verdict(false, clip(`${resource} in Chromium: ${problems.join('; ')}`));
    },
    /** Nothing on the page reaches past the right edge of a screen this wide: no sideways scrolling. */
    fits_width: async (context, args) => {
      const { resource, width, height = 740 } = args as { resource: string; width: number; height?: number };
      const found = await inspect(appOf(context, resource), { width, height }, [], (page) => page.evaluate(OVERFLOW) as Promise<{ scroll: number; wide: string[] }>);
      if (typeof found === 'string') return verdict(false, found);
      const fits = found.scroll <= width && found.wide.length === 0;
      return verdict(fits, fits ? `at ${width} px wide nothing is wider than the screen` : `at ${width} px wide the page is ${found.scroll} px wide; past the edge: ${found.wide.join(', ') || 'the page itself'}`);
    },
    /** The elements matching `selector` sit side by side in one row, each whole on a screen this wide. */
    side_by_side: async (context, args) => {
      const { resource, selector, count, width, height = 800 } = args as { resource: string; selector: string; count: number; width: number; height?: number };
      const boxes = await inspect(appOf(context, resource), { width, height }, [], (page) => page.evaluate(boxesOf(selector)) as Promise<Box[]>);
      if (typeof boxes === 'string') return verdict(false, boxes);
      const where = `at ${width} px wide the ${count} elements matching ${selector}`;
      if (boxes.length !== count) return verdict(false, `at ${width} px wide ${boxes.length} elements match ${selector}, not ${count}`);
      const row = boxes.every((b, i) => Math.abs(b.top - boxes[0]!.top) <= 1 && b.right <= width + 0.5 && (i === 0 || b.left >= boxes[i - 1]!.right - 0.5));
      return verdict(row, row ? `${where} sit side by side in one row` : `${where} are not side by side in one row: ${boxes.map((b) => `(${b.left}, ${b.top})–${b.right}`).join(', ')}`);
    },
    /** After clicking `clicks` in order, the element's computed styles are these (colours as rgb(...)). */
    computed_style: async (context, args) => {
      const { resource, selector, styles, clicks = [] } = args as { resource: string; selector: string; styles: Record<string, string>; clicks?: string[] };
      const actual = await inspect(appOf(context, resource), { width: 1280, height: 800 }, clicks, (page) => page.evaluate(stylesOf(selector, Object.keys(styles))) as Promise<Record<string, string> | null>);
      if (typeof actual === 'string') return verdict(false, actual);
      if (actual === null) return verdict(false, `no element matches ${JSON.stringify(selector)}`);
      const wrong = Object.entries(styles).filter(([property, value]) => actual[property] !== value);
      const after = clicks.length > 0 ? ` after clicking ${clicks.join(', ')}` : '';
      return verdict(
        wrong.length === 0,
        wrong.length === 0 ? `${selector}${after} has ${Object.entries(styles).map(([p, v]) => `${p} ${v}`).join(', ')}` : `${selector}${after} has ${wrong.map(([p, v]) => `${p} ${actual[p]} (expected ${v})`).join(', ')}`,
      );
    },
    /** The app opens on this page. */
    entry_is: (context, args) => {
      const { resource, path } = args as { resource: string; path: string };
      const app = appOf(context, resource);
      return verdict(app.entry === path, app.entry === path ? `${resource} opens ${path}` : `${resource} opens ${JSON.stringify(app.entry)}, not ${JSON.stringify(path)}`);
    },
    /** These files are in the app, and those are not. */
    files: (context, args) => {
      const { resource, present = [], absent = [] } = args as { resource: string; present?: string[]; absent?: string[] };
      const app = appOf(context, resource);
      const missing = present.filter((p) => !fileAt(app, p));
      const left = absent.filter((p) => fileAt(app, p));
      const problems = [...(missing.length > 0 ? [`lacks ${missing.join(', ')}`] : []), ...(left.length > 0 ? [`still has ${left.join(', ')}`] : [])];
      return verdict(problems.length === 0, problems.length === 0 ? `${resource} has the files expected` : `${resource} ${problems.join(' and ')}`);
    },
    /** A text file contains these snippets, matches these patterns and none of those (case-insensitive). */
    file_text: (context, args) => {
      const { resource, path, contains = [], matches = [], lacks = [] } = args as { resource: string; path: string; contains?: string[]; matches?: string[]; lacks?: string[] };
      const file = fileAt(appOf(context, resource), path);
      if (!file || !isText(file)) return verdict(false, `${resource} has no text file ${path}`);
      const problems = [
        ...contains.filter((s) => !file.text.includes(s)).map((s) => `lacks ${JSON.stringify(s)}`),
        ...matches.filter((p) => !new RegExp(p, 'i').test(file.text)).map((p) => `has nothing like /${p}/`),
        ...lacks.filter((p) => new RegExp(p, 'i').test(file.text)).map((p) => `still has /${p}/`),
      ];
      return verdict(problems.length === 0, problems.length === 0 ? `${path} reads as expected` : `${path} ${problems.join(', ')}`);
    },
    /** These files are as the task started: the agent left them alone. */
    files_unchanged: async (context, args) => {
      const { resource, paths } = args as { resource: string; paths: string[] };
      const record = resourceOf(context, resource);
      const start = (await context.api.contentAt(record.id, 0)) as WebApp;
      const changed = paths.filter((p) => !jsonEqual((fileAt(appOf(context, resource), p) ?? null) as Json, (fileAt(start, p) ?? null) as Json));
      return verdict(changed.length === 0, changed.length === 0 ? `unchanged: ${paths.join(', ')}` : `changed: ${changed.join(', ')}`);
    },
    /** The zip export holds exactly these files, each with the app's bytes (what a person uploads to a static host). */
    zip_export: async (context, args) => {
      const { resource, files } = args as { resource: string; files: string[] };
      const app = appOf(context, resource);
      const data = await context.exportResource(resourceOf(context, resource).id, 'zip');
      const zip = SafeZip.open(data, { maxEntryBytes: MAX_FILE_BYTES, maxTotalBytes: MAX_TOTAL_BYTES }, `${resource}.zip`);
      const names = zip.entries.map((e) => e.name).sort();
      const expected = [...files].sort();
      if (!jsonEqual(names, expected)) return verdict(false, `the zip holds ${names.join(', ')}; expected ${expected.join(', ')}`);
      const differ: string[] = [];
      for (const entry of zip.entries) {
        const file = fileAt(app, entry.name);
        if (!file || !Buffer.from(await zip.read(entry)).equals(Buffer.from(fileData(file)))) differ.push(entry.name);
      }
      return verdict(differ.length === 0, differ.length === 0 ? `the zip holds ${expected.join(', ')}, as in the app` : `the zip's ${differ.join(', ')} differ from the app's`);
    },
    /** Someone in the run tried the app with web_check on its final revision, and it passed. */
    web_checked: (context, args) => {
      const { resource } = args as { resource: string };
      const record = resourceOf(context, resource);
      const calls = runCalls(context.run).filter((c) => c.name === 'web_check' && !c.failed && field(c.input, 'resourceId') === record.id);
      const ok = calls.some((c) => field(c.result, 'revision') === record.revision && field(c.result, 'passed') === true);
      return verdict(ok, ok ? `web_check passed on the final revision of ${resource}` : `web_check ran ${calls.length} time(s) on ${resource}, never passing on its final revision (${record.revision})`);
    },
    /** Main accepted the candidate a subagent proposed. */
    candidate_accepted: (context) => {
      const calls = runCalls(context.run);
      const proposed = calls.filter((c) => c.agentId !== 'main' && c.name === 'propose_draft' && !c.failed).map((c) => field(c.result, 'candidateId'));
      const accepted = calls.filter((c) => c.agentId === 'main' && c.name === 'accept_candidate' && !c.failed).map((c) => field(c.input, 'candidateId'));
      const both = proposed.filter((id) => accepted.includes(id));
      return verdict(both.length > 0, both.length > 0 ? "Main accepted the subagent's candidate" : `proposed ${proposed.length}, accepted ${accepted.length}, none of them the same`);
    },
    finished: (context) => verdict(context.run.outcome === 'done', `the run ended: ${context.run.outcome}`),
  } satisfies Record<string, SuiteCheck>,
});

type Box = { left: number; top: number; right: number };

function verdict(pass: boolean, detail: string): CheckVerdict {
  return { pass, detail };
}

function clip(text: string): string {
  return text.length > 1000 ? `${text.slice(0, 1000)}…` : text;
}

function resourceOf(context: SuiteCheckContext, name: string): ResourceRecord {
  const record = context.resources[name];
  if (!record) throw new Error(`the task has no resource named ${name}`);
  if (record.kind !== 'web.app') throw new Error(`resource ${name} is a ${record.kind}, not a web.app`);
  return record;
}

function appOf(context: SuiteCheckContext, name: string): WebApp {
  return resourceOf(context, name).content as WebApp;
}

function field(value: Json | undefined, key: string): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value[key] : undefined;
}

/**
 * Opens the app in Chromium (a fresh context of the shared browser) at a screen size, clicks
 * `clicks` in order, and measures. Why the app could not be measured (it did not load, a click
 * found nothing) is returned as a sentence: that is the app's failure, not the check's.
 */
async function inspect<T>(app: WebApp, viewport: Viewport, clicks: readonly string[], measure: (page: Page) => Promise<T>): Promise<T | string> {
  const browser = await sharedChromium().open({ viewport });
  try {
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    await serveApp(browser.context, app, () => undefined);
    try {
      const response = await page.goto(`${APP_ORIGIN}/`, { waitUntil: 'load', timeout: 10_000 });
      if (response?.status() === 404) return `the entry page ${app.entry} is not among the app's files`;
    } catch (error) {
      return `the app did not load: ${firstLine(error)}`;
    }
    for (const selector of clicks) {
      try {
        await page.locator(selector).click({ timeout: 3_000 });
      } catch (error) {
        return `clicking ${selector} failed: ${firstLine(error)}`;
      }
    }
    await page.evaluate(SETTLE).catch(() => undefined);
    return await measure(page);
  } finally {
    await browser.close();
  }
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!.replace(/\u001b\[[0-9;]*m/g, '');
}

/** A frame and a macrotask: what a click set off has run (as web_check settles a step). */
const SETTLE = 'new Promise((resolve) => { requestAnimationFrame(() => setTimeout(resolve, 0)); setTimeout(resolve, 250); })';

/** The page's scroll width and the outermost elements reaching past the screen's edges (browser code, as text: no DOM types here). */
const OVERFLOW = `(() => {
  const width = document.documentElement.clientWidth;
  const name = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + [...e.classList].map((c) => '.' + c).join('');
  const past = new Set();
  const wide = [];
  for (const e of document.body.querySelectorAll('*')) {
    const r = e.getBoundingClientRect();
    if (r.width === 0 || (r.right <= width + 0.5 && r.left >= -0.5)) continue;
    past.add(e);
    if (!past.has(e.parentElement)) wide.push(name(e) + ' (' + Math.round(r.left) + ' to ' + Math.round(r.right) + ' px)');
  }
  return { scroll: document.documentElement.scrollWidth, wide: wide.slice(0, 5) };
})()`;

function boxesOf(selector: string): string {
  return `[...document.querySelectorAll(${JSON.stringify(selector)})].map((e) => { const r = e.getBoundingClientRect(); return { left: Math.round(r.left), top: Math.round(r.top), right: Math.round(r.right) }; })`;
}

function stylesOf(selector: string, properties: readonly string[]): string {
  return `(() => { const e = document.querySelector(${JSON.stringify(selector)}); if (!e) return null; const s = getComputedStyle(e); return Object.fromEntries(${JSON.stringify(properties)}.map((p) => [p, s.getPropertyValue(p)])); })()`;
}
