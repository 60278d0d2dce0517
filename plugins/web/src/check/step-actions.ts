import type { Locator, Page } from 'playwright-core';
import type { Step } from './steps';

/** Why a step failed, in words a model can act on (no Playwright call log). */
export class StepFailure extends Error {}

const POLL_MS = 50;

/**
 * Performs one step within `timeoutMs`. Actions wait as Playwright does (visible, enabled, stable);
 * assertions poll until they hold or time runs out, then fail with what was last seen.
 */
export async function performStep(page: Page, step: Step, timeoutMs: number, screenshotPath: string): Promise<void> {
  try {
    switch (step.action) {
      case 'click':
        return await page.locator(step.selector).click({ timeout: timeoutMs });
      case 'type':
        return await page.locator(step.selector).fill(step.text, { timeout: timeoutMs });
      case 'press':
        if (step.selector === undefined) return await page.keyboard.press(step.key);
        return await page.locator(step.selector).press(step.key, { timeout: timeoutMs });
      case 'select':
        await page.locator(step.selector).selectOption(step.value, { timeout: timeoutMs });
        return;
      case 'wait':
        if (step.ms !== undefined) return await page.waitForTimeout(step.ms);
        return await page.locator(step.selector!).waitFor({ state: 'visible', timeout: timeoutMs });
      case 'assert_text':
        return await poll(timeoutMs, () => textMismatch(page.locator(step.selector), step));
      case 'assert_dom':
        return await poll(timeoutMs, () => domMismatch(page.locator(step.selector), step));
      case 'screenshot':
        await page.screenshot({ path: screenshotPath, fullPage: true, timeout: timeoutMs });
        return;
    }
  } catch (error) {
    if (error instanceof StepFailure) throw error;
    throw new StepFailure(playwrightMessage(error));
  }
}

/** Calls `mismatch` until it reports none (undefined) or the time is up; then fails with the last one. */
async function poll(timeoutMs: number, mismatch: () => Promise<string | undefined>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // The page may change under the assertion (an element re-rendered between two reads): try again.
    const problem = await mismatch().catch((error: unknown) => playwrightMessage(error));
    if (problem === undefined) return;
    if (Date.now() >= deadline) throw new StepFailure(`${problem} (after waiting ${timeoutMs} ms)`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

async function textMismatch(locator: Locator, step: Extract<Step, { action: 'assert_text' }>): Promise<string | undefined> {
  const count = await locator.count();
  const where = JSON.stringify(step.selector);
  if (count !== 1) return count === 0 ? `no element matches ${where}` : `${where} matches ${count} elements; make the selector match one`;
  const text = normalize(await locator.innerText({ timeout: POLL_MS * 4 }));
  if (step.equals !== undefined) {
    return text === normalize(step.equals) ? undefined : `expected the text of ${where} to equal ${JSON.stringify(step.equals)}, it is ${quote(text)}`;
  }
  return text.includes(step.contains!) ? undefined : `expected the text of ${where} to contain ${JSON.stringify(step.contains)}, it is ${quote(text)}`;
}

async function domMismatch(locator: Locator, step: Extract<Step, { action: 'assert_dom' }>): Promise<string | undefined> {
  const where = JSON.stringify(step.selector);
  const count = await locator.count();
  if (step.count !== undefined && count !== step.count) return `expected ${step.count} element${step.count === 1 ? '' : 's'} to match ${where}, found ${count}`;
  if (step.exists === false) return count === 0 ? undefined : `expected no element to match ${where}, found ${count}`;
  if (count === 0 && step.count === undefined) return `no element matches ${where}`;
  for (let i = 0; i < count; i++) {
    const element = locator.nth(i);
    const which = count === 1 ? where : `match ${i + 1} of ${where}`;
    const problem = await elementMismatch(element, which, step);
    if (problem) return problem;
  }
  return undefined;
}

async function elementMismatch(element: Locator, which: string, step: Extract<Step, { action: 'assert_dom' }>): Promise<string | undefined> {
  const options = { timeout: POLL_MS * 4 };
  if (step.visible !== undefined && (await element.isVisible()) !== step.visible) return `expected ${which} to be ${step.visible ? 'visible' : 'hidden'}, it is not`;
  if (step.enabled !== undefined && (await element.isEnabled(options)) !== step.enabled) {
    return `expected ${which} to be ${step.enabled ? 'enabled' : 'disabled'}, it is ${step.enabled ? 'disabled' : 'enabled'}`;
  }
  if (step.checked !== undefined && (await element.isChecked(options)) !== step.checked) return `expected ${which} to be ${step.checked ? 'checked' : 'unchecked'}, it is not`;
  if (step.value !== undefined) {
    const value = await element.inputValue(options);
    if (value !== step.value) return `expected the value of ${which} to be ${JSON.stringify(step.value)}, it is ${quote(value)}`;
  }
  if (step.attribute) {
    const { name, value } = step.attribute;
    const actual = await element.getAttribute(name, options);
    if (actual === null) return `expected ${which} to have the attribute ${name}, it has none`;
    if (value !== undefined && actual !== value) return `expected the attribute ${name} of ${which} to be ${JSON.stringify(value)}, it is ${quote(actual)}`;
  }
  return undefined;
}

/** Call-log lines that say what Playwright was doing, not why it could not: left out of messages. */
const ROUTINE = /^(\d+ × )?(waiting \d+ms|retrying |attempting |waiting for element to be |fill\()/;

/**
 * A Playwright error in a line or two: its first line ("Timeout 3000ms exceeded.") and the last
 * telling line of its call log ("element is not enabled", "did not find some options"); for a
 * selector matching several elements, the first few of them.
 */
function playwrightMessage(error: unknown): string {
  // The call log is coloured with ANSI escapes.
  const message = (error instanceof Error ? error.message : String(error)).replace(/\u001b\[[0-9;]*m/g, '');
  const lines = message.split('\n').map((line) => line.trim()).filter(Boolean);
  const first = (lines[0] ?? message).replace(/^[a-zA-Z]+\.[a-zA-Z]+: /, '').replace(/^Error: /, '');
  const log = lines.indexOf('Call log:');
  if (first.startsWith('strict mode violation')) {
    const matches = lines.slice(1, log < 0 ? undefined : log).slice(0, 3).map((line) => line.replace(/ aka .*$/, ''));
    return `${first.replace(/:$/, '')}; make the selector match one element: ${matches.join(' ')}`;
  }
  const reasons = log < 0 ? [] : lines.slice(log + 1).map((line) => line.replace(/^- /, '')).filter((line) => !ROUTINE.test(line));
  const reason = reasons.at(-1);
  return reason ? `${first} (${reason})` : first;
}

function normalize(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function quote(text: string): string {
  return JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text);
}
