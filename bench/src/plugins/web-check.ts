/**
 * The web plugin's costs through a real Host: Chromium's launch (headless, a fresh context) and
 * close, the `web_check` tool's ten-step interaction on the packing planner (a whole tool call:
 * read the revision, open a fresh context, load, ten steps, close) on a host, which keeps one
 * Chromium for its checks, and the same check run with no host holding one, starting its own; the
 * time of each step inside it, and the zip export of an app of 50 files.
 *
 * BENCH_WEB_SAMPLES (default 5) checks and launches after 1 warm-up; BENCH_WEB_ZIP_SAMPLES
 * (default 50) zip exports after 5 warm-ups. Prints figures; asserts nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Json } from '@cowork/host';
import { type Host } from '@cowork/host/embed';
import { openTempHost } from '@cowork/host/testkit';
import { latencyLine } from '../stats';
import { launchBrowser, plugin, PACKING_PLANNER_STEPS, runCheck, sampleApp, type CheckResult, type WebApp } from '@cowork/plugin-web';

const SAMPLES = Number(process.env.BENCH_WEB_SAMPLES ?? 5);
const ZIP_SAMPLES = Number(process.env.BENCH_WEB_ZIP_SAMPLES ?? 50);

const TEN_STEPS = [...PACKING_PLANNER_STEPS];

/** 50 files: 30 scripts and 15 stylesheets of about 4 KiB, 4 pages, one 20 KiB binary. */
function fiftyFiles(): WebApp {
  const files: WebApp['files'] = {};
  const line = (i: number) => `export function step${i}(state) { return { ...state, count: state.count + ${i} }; }\n`;
  for (let i = 0; i < 30; i++) files[`js/module-${i}.js`] = { text: Array.from({ length: 50 }, (_, j) => line(i * 50 + j)).join('') };
  for (let i = 0; i < 15; i++) files[`css/part-${i}.css`] = { text: Array.from({ length: 80 }, (_, j) => `.c${i}-${j} { margin: ${j}px; color: #${(j * 4111).toString(16).padStart(6, '0').slice(0, 6)}; }\n`).join('') };
  for (let i = 0; i < 4; i++) files[i === 0 ? 'index.html' : `page-${i}.html`] = { text: `<!doctype html>\n<title>Page ${i}</title>\n${'<p>text</p>\n'.repeat(100)}` };
  files['img/noise.bin'] = { base64: Buffer.from(Array.from({ length: 20 * 1024 }, (_, i) => (i * 2654435761) >>> 24)).toString('base64') };
  return { entry: 'index.html', files };
}

/** Whole web_check tool calls of the ten steps on the packing planner, after one warm-up. */
async function tenStepChecks(host: Host, perStep: Map<string, number[]>): Promise<number[]> {
  const r = await host.resources.create({ kind: 'web.app', content: sampleApp('packing-planner'), operator: 'human:bench' });
  const tool = host.registry.tool('web_check')!.tool;
  const checks: number[] = [];
  for (let i = 0; i < 1 + SAMPLES; i++) {
    const started = performance.now();
    const result = await tool.handler({ resourceId: r.id, steps: TEN_STEPS } as unknown as Json, {
      operator: 'agent:bench',
      signal: new AbortController().signal,
      host: { workspaceDir: host.workspaceDir, resources: host.resources },
    });
    const elapsed = performance.now() - started;
    const check = result.content as unknown as CheckResult;
    if (result.isError || !check.passed) throw new Error(`the ten-step check did not pass: ${JSON.stringify(result.content)}`);
    if (i < 1) continue;
    checks.push(elapsed);
    for (const step of check.steps) perStep.set(step.action, [...(perStep.get(step.action) ?? []), step.durationMs]);
  }
  return checks;
}

/** The same check with no host holding the shared Chromium: each run starts and closes its own. */
async function ownBrowserChecks(): Promise<number[]> {
  const screenshotDir = mkdtempSync(join(tmpdir(), 'cowork-bench-web-shots-'));
  const app = sampleApp('packing-planner');
  const checks: number[] = [];
  try {
    for (let i = 0; i < 1 + SAMPLES; i++) {
      const started = performance.now();
      const check = await runCheck(app, { steps: TEN_STEPS, screenshotDir });
      if (!check.passed) throw new Error('the ten-step check did not pass with its own browser');
      if (i >= 1) checks.push(performance.now() - started);
    }
  } finally {
    rmSync(screenshotDir, { recursive: true, force: true });
  }
  return checks;
}

async function main(): Promise<void> {
  const perCheckBrowser = await ownBrowserChecks();
  const host = await openTempHost({ plugins: [plugin], prefix: 'cowork-bench-web-' });
  try {
    const launches: number[] = [];
    const closes: number[] = [];
    for (let i = 0; i < 1 + SAMPLES; i++) {
      let started = performance.now();
      const browser = await launchBrowser({ viewport: { width: 1280, height: 800 } });
      const launched = performance.now() - started;
      started = performance.now();
      await browser.close();
      if (i >= 1) {
        launches.push(launched);
        closes.push(performance.now() - started);
      }
    }

    const perStep = new Map<string, number[]>();
    const checks = await tenStepChecks(host, perStep);

    const app = fiftyFiles();
    const zipped = await host.resources.create({ kind: 'web.app', content: app, operator: 'human:bench' });
    const zips: number[] = [];
    let zipBytes = 0;
    for (let i = 0; i < 5 + ZIP_SAMPLES; i++) {
      const started = performance.now();
      const file = await host.exports.export(zipped.id, 'zip');
      const elapsed = performance.now() - started;
      zipBytes = file.data.byteLength;
      if (i >= 5) zips.push(elapsed);
    }
    const appBytes = Object.values(app.files).reduce((sum, f) => sum + ('text' in f ? Buffer.byteLength(f.text) : (f.base64.length * 3) / 4), 0);

    console.log(`web plugin: Chromium ${'/usr/bin/chromium'}, headless, a fresh context per check`);
    console.log(latencyLine('chromium launch (launch + new context)', launches, 64));
    console.log(latencyLine('chromium close', closes, 64));
    console.log(latencyLine('web_check, ten steps, on a host (shared Chromium)', checks, 64));
    console.log(latencyLine('the same check starting its own Chromium', perCheckBrowser, 64));
    for (const [action, samples] of perStep) console.log(latencyLine(`  step ${action}`, samples, 64));
    console.log(latencyLine(`zip export, 50 files, ${(appBytes / 1024).toFixed(0)} KiB -> ${(zipBytes / 1024).toFixed(0)} KiB`, zips, 64));
  } finally {
    await host.dispose();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
