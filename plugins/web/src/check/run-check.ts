import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { WebApp } from '../app/content';
import { APP_ORIGIN, serveApp } from './app-routes';
import { sharedChromium } from './browser';
import { PageErrors } from './page-errors';
import { StepFailure, performStep } from './step-actions';
import { DEFAULT_STEP_TIMEOUT_MS, type Step } from './steps';

/** A whole check may take this long; steps that would start later are skipped, saying so. */
export const MAX_CHECK_MS = 120_000;
const LOAD_TIMEOUT_MS = 10_000;
const SCREENSHOT_TIMEOUT_MS = 10_000;

export type StepResult = {
  /** 1-based, as a person counts steps; 0 in `consoleErrors` means the page load before step 1. */
  index: number;
  action: Step['action'];
  ok: boolean;
  /** True when the step did not run (the app did not load, or an earlier step failed with stopOnFailure). */
  skipped?: boolean;
  error?: string;
  consoleErrors: string[];
  /** The screenshot taken after the step: on a `screenshot` step and on every failure. */
  screenshot?: string;
  durationMs: number;
};

export type CheckResult = {
  passed: boolean;
  load: { ok: boolean; error?: string; consoleErrors: string[] };
  steps: StepResult[];
  /** Every error the page reported, in order, with the step it happened during (0: the load). */
  consoleErrors: { step: number; text: string }[];
};

export interface CheckOptions {
  readonly steps: readonly Step[];
  /** Where step-N.png files go; created when the first screenshot is taken. */
  readonly screenshotDir: string;
  readonly viewport?: { width: number; height: number };
  /** Skip the steps after the first failure (default false: every step runs and reports). */
  readonly stopOnFailure?: boolean;
  readonly executablePath?: string;
  readonly signal?: AbortSignal;
}

/**
 * Opens `app` in a fresh headless Chromium context and runs the steps in order, the way a reviewer tries
 * an interactive deliverable. A step fails when its action or assertion fails within its timeout,
 * or when the page throws an uncaught error while it runs (console.error messages are reported
 * but fail nothing). By default every step runs even after a failure, so one check reports every
 * broken part of an app; later steps may then fail as a consequence of an earlier one.
 */
export async function runCheck(app: WebApp, options: CheckOptions): Promise<CheckResult> {
  const browser = await sharedChromium().open({ executablePath: options.executablePath, viewport: options.viewport ?? { width: 1280, height: 800 } });
  try {
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    const errors = new PageErrors(page, app.entry);
    await serveApp(browser.context, app, (url) => errors.record(`blocked a request to ${url}: a checked app may load only its own files`));
    const loadError = await load(page, app);
    const started = Date.now();
    const steps: StepResult[] = [];
    let failed = false;
    for (const [i, step] of options.steps.entries()) {
      options.signal?.throwIfAborted();
      const index = i + 1;
      const left = MAX_CHECK_MS - (Date.now() - started);
      const skip =
        loadError !== undefined ? 'not run: the app did not load'
        : failed && options.stopOnFailure ? 'not run: an earlier step failed (stopOnFailure)'
        : left <= 0 ? `not run: the check used all of its ${MAX_CHECK_MS / 1000} s`
        : undefined;
      if (skip) {
        steps.push({ index, action: step.action, ok: false, skipped: true, error: skip, consoleErrors: [], durationMs: 0 });
        continue;
      }
      errors.step = index;
      const result = await runStep(page, step, index, Math.min(stepTimeout(step), left), options.screenshotDir, errors);
      failed ||= !result.ok;
      steps.push(result);
    }
    // Errors that arrived after their step was judged (a timer firing later) are listed with it too.
    for (const step of steps) step.consoleErrors = errors.during(step.index);
    const threw = errors.threw(0);
    const loadProblem = loadError ?? (threw ? `the page threw while loading: ${threw}` : undefined);
    return {
      passed: loadProblem === undefined && steps.every((s) => s.ok),
      load: { ok: loadProblem === undefined, ...(loadProblem ? { error: loadProblem } : {}), consoleErrors: errors.during(0) },
      steps,
      consoleErrors: errors.all(),
    };
  } finally {
    await browser.close();
  }
}

async function runStep(page: Page, step: Step, index: number, timeout: number, dir: string, errors: PageErrors): Promise<StepResult> {
  const shot = join(dir, `step-${index}.png`);
  if (step.action === 'screenshot') mkdirSync(dir, { recursive: true });
  const started = performance.now();
  let error = await performStep(page, step, timeout, shot).then(
    () => undefined,
    (e: unknown) => (e instanceof StepFailure ? e.message : String(e)),
  );
  await settle(page);
  const durationMs = Math.round(performance.now() - started);
  const threw = errors.threw(index);
  if (error === undefined && threw) error = `the page threw during this step: ${threw}`;
  const result: StepResult = { index, action: step.action, ok: error === undefined, consoleErrors: [], durationMs };
  if (error !== undefined) {
    result.error = error;
    if (await takeScreenshot(page, dir, shot)) result.screenshot = shot;
  } else if (step.action === 'screenshot') {
    result.screenshot = shot;
  }
  return result;
}

function stepTimeout(step: Step): number {
  return step.action === 'screenshot' ? SCREENSHOT_TIMEOUT_MS : step.timeoutMs ?? DEFAULT_STEP_TIMEOUT_MS;
}

/** Opens the app's root; the reason when it cannot be shown (its entry missing, a load that never ends). */
async function load(page: Page, app: WebApp): Promise<string | undefined> {
  try {
    const response = await page.goto(`${APP_ORIGIN}/`, { waitUntil: 'load', timeout: LOAD_TIMEOUT_MS });
    await settle(page);
    if (response && response.status() === 404) return `the entry page ${JSON.stringify(app.entry)} is not among the app's files`;
    return undefined;
  } catch (error) {
    return `the app did not load: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
  }
}

/**
 * Lets what a step set off run to completion before the step is judged: a frame and a macrotask,
 * so that handlers scheduled with setTimeout(0) or requestAnimationFrame have run and their errors
 * have reached us (the evaluate's answer comes after the page's earlier events). The plain timer
 * bounds it where frames do not come.
 */
const SETTLE = 'new Promise((resolve) => { requestAnimationFrame(() => setTimeout(resolve, 0)); setTimeout(resolve, 250); })';

async function settle(page: Page): Promise<void> {
  await page.evaluate(SETTLE).catch(() => undefined);
}

async function takeScreenshot(page: Page, dir: string, path: string): Promise<boolean> {
  try {
    mkdirSync(dir, { recursive: true });
    await page.screenshot({ path, fullPage: true, timeout: SCREENSHOT_TIMEOUT_MS });
    return true;
  } catch {
    return false;
  }
}
