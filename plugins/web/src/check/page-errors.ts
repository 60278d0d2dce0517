import type { ConsoleMessage, Page } from 'playwright-core';
import { APP_ORIGIN } from './app-routes';

/** Errors kept per check, and characters per error: an app that logs in a loop must not flood a model's context. */
const MAX_ERRORS = 100;
const ERROR_CHARS = 500;

/**
 * The errors a page reports (console.error messages, uncaught exceptions, blocked requests), each
 * attributed to the step running when it arrived: 0 is the page load. An error from a timer that
 * fires after its step ended lands on the step running then.
 */
export class PageErrors {
  /** The step now running; set by the runner. */
  step = 0;
  private readonly errors: { step: number; text: string }[] = [];
  private readonly thrown = new Map<number, string>();
  private dropped = 0;

  /** `entry` names the page at the app's root in locations ("index.html:12", not ":12"). */
  constructor(page: Page, entry: string) {
    page.on('console', (message) => {
      // A blocked request is recorded by the route, with a clearer message.
      if (message.type() === 'error' && !message.text().includes('ERR_BLOCKED_BY_CLIENT')) this.record(consoleText(message, entry));
    });
    page.on('pageerror', (error) => {
      const text = this.record(`uncaught ${errorText(error, entry)}`);
      if (!this.thrown.has(this.step)) this.thrown.set(this.step, text);
    });
  }

  record(text: string): string {
    const clipped = text.length > ERROR_CHARS ? `${text.slice(0, ERROR_CHARS)}…` : text;
    if (this.errors.length < MAX_ERRORS) this.errors.push({ step: this.step, text: clipped });
    else this.dropped++;
    return clipped;
  }

  /** The first uncaught exception during `step`, if any: it fails the step. */
  threw(step: number): string | undefined {
    return this.thrown.get(step);
  }

  during(step: number): string[] {
    return this.errors.filter((e) => e.step === step).map((e) => e.text);
  }

  all(): { step: number; text: string }[] {
    const more = this.dropped > 0 ? [{ step: this.step, text: `… ${this.dropped} more errors not recorded (at most ${MAX_ERRORS} are kept)` }] : [];
    return [...this.errors, ...more];
  }
}

/** "console.error: text (app.js:12)", with URLs of the app shown as its paths. */
function consoleText(message: ConsoleMessage, entry: string): string {
  const { url, lineNumber } = message.location();
  const where = url ? ` (${url === `${APP_ORIGIN}/` ? entry : appPath(url)}${lineNumber >= 0 ? `:${lineNumber + 1}` : ''})` : '';
  return `console.error: ${appPath(message.text())}${where}`;
}

/** "TypeError: x is not a function at app.js:67:35": the message and the top frames of the stack. */
function errorText(error: Error, entry: string): string {
  const frames = (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line)).slice(0, 3).map((line) => line.trim());
  // In the sandbox's opaque origin Chromium names the error "Uncaught TypeError": we say "uncaught" once.
  const name = error.name.replace(/^Uncaught /, '');
  return appPath([`${name}: ${error.message}`, ...frames].join(' ').split(`${APP_ORIGIN}/:`).join(`${entry}:`));
}

function appPath(text: string): string {
  return text.split(`${APP_ORIGIN}/`).join('');
}
