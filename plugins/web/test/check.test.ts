// Invariant: web_check tries a web.app in real headless Chromium and reports each step truthfully.
// The ten-step interaction passes on the packing planner (add, refusal of an item that does not
// fit, undo), and undo, reset and a refused bag change work; on the broken planner (Add throws on
// an item that does not fit, Undo does nothing) exactly the affected steps fail, the throwing step
// carries the page's error, and failures leave screenshots in the workspace. The page reaches
// nothing outside the app; an app without its entry fails to load; a missing Chromium is a clear
// tool error naming the Debian package.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Json, type ToolContext } from '@cowork/host';
import { openTempHost, type TempHost } from '@cowork/host/testkit';
import { plugin, PACKING_PLANNER_STEPS, sampleApp, webCheckTool, type CheckInput, type CheckResult, type StepResult } from '../src';

const TEN_STEPS = [...PACKING_PLANNER_STEPS];

type ToolOutput = CheckResult & { resourceId: string; revision: number; runId: string };

let host: TempHost;

beforeAll(async () => {
  host = await openTempHost({ plugins: [plugin], prefix: 'cowork-web-check-test-' });
});

afterAll(() => host.dispose());

function context(): ToolContext {
  return { operator: 'agent:reviewer', signal: new AbortController().signal, host: { workspaceDir: host.workspaceDir, resources: host.resources } };
}

async function check(input: CheckInput, tool = host.registry.tool('web_check')!.tool): Promise<{ content: ToolOutput; isError?: boolean }> {
  const result = await tool.handler(input as unknown as Json, context());
  return result as { content: ToolOutput; isError?: boolean };
}

function failing(steps: StepResult[]): number[] {
  return steps.filter((s) => !s.ok).map((s) => s.index);
}

function isPng(workspacePath: string): boolean {
  const path = join(host.dir, workspacePath);
  return existsSync(path) && readFileSync(path).subarray(1, 4).toString('latin1') === 'PNG';
}

describe('web_check on the packing planner', () => {
  let plannerId: string;

  beforeAll(async () => {
    plannerId = (await host.resources.create({ kind: 'web.app', content: sampleApp('packing-planner'), operator: 'human:ann' })).id;
  });

  it('passes the ten-step interaction and reports every step', async () => {
    const { content, isError } = await check({ resourceId: plannerId, steps: TEN_STEPS });
    expect(isError).toBeFalsy();
    expect(content.passed).toBe(true);
    expect(content.load).toEqual({ ok: true, consoleErrors: [] });
    expect(content.steps.map((s) => [s.index, s.action, s.ok])).toEqual(TEN_STEPS.map((step, i) => [i + 1, step.action, true]));
    expect(content.consoleErrors).toEqual([]);
    const shot = content.steps[9]!.screenshot!;
    expect(shot).toBe(`artifacts/checks/${plannerId}/${content.runId}/step-10.png`);
    expect(isPng(shot)).toBe(true);
  });

  it('undoes and resets, and refuses a bag too small for what is packed', async () => {
    const { content } = await check({
      resourceId: plannerId,
      steps: [
        { action: 'select', selector: '#bag', value: 'Backpack (40 L)' },
        { action: 'select', selector: '#preset', value: 'tent' },
        { action: 'press', selector: '#volume', key: 'Enter' },
        { action: 'select', selector: '#preset', value: 'sleeping-bag' },
        { action: 'click', selector: '#add' },
        { action: 'assert_text', selector: '#total', equals: '21 / 40 L' },
        { action: 'select', selector: '#bag', value: '20' },
        { action: 'assert_text', selector: '#message', contains: 'do not fit in a 20 L bag' },
        { action: 'assert_dom', selector: '#bag', value: '40' },
        { action: 'click', selector: '#reset' },
        { action: 'assert_text', selector: '#total', equals: '0 / 40 L' },
        { action: 'assert_dom', selector: '#reset', enabled: false },
        { action: 'click', selector: '#undo' },
        { action: 'assert_dom', selector: '#items li', count: 2, visible: true },
        { action: 'assert_dom', selector: '#message', attribute: { name: 'class', value: 'ok' } },
      ],
    });
    expect(content.steps.filter((s) => !s.ok)).toEqual([]);
    expect(content.passed).toBe(true);
  });

  it('fails an assertion that does not hold, with what it saw, and the run goes on', async () => {
    const { content } = await check({
      resourceId: plannerId,
      steps: [
        { action: 'assert_text', selector: '#total', equals: '5 / 20 L', timeoutMs: 300 },
        { action: 'click', selector: '#no-such-button', timeoutMs: 300 },
        { action: 'assert_dom', selector: '#undo', enabled: true, timeoutMs: 300 },
        { action: 'assert_dom', selector: 'button', count: 4, timeoutMs: 300 },
        { action: 'assert_dom', selector: '#items li', exists: false },
        { action: 'click', selector: '#undo', timeoutMs: 300 },
        { action: 'click', selector: 'button', timeoutMs: 300 },
      ],
    });
    expect(content.passed).toBe(false);
    expect(failing(content.steps)).toEqual([1, 2, 3, 4, 6, 7]);
    expect(content.steps[5]!.error).toBe('Timeout 300ms exceeded. (element is not enabled)');
    expect(content.steps[6]!.error).toMatch(/^strict mode violation: locator\('button'\) resolved to 3 elements; make the selector match one element: 1\) <button id="add"/);
    expect(content.steps[0]!.error).toBe('expected the text of "#total" to equal "5 / 20 L", it is "0 / 20 L" (after waiting 300 ms)');
    expect(content.steps[1]!.error).toMatch(/Timeout 300ms exceeded.*#no-such-button/);
    expect(content.steps[2]!.error).toMatch(/expected "#undo" to be enabled, it is disabled/);
    expect(content.steps[3]!.error).toMatch(/expected 4 elements to match "button", found 3/);
    for (const index of [1, 2, 3, 4]) expect(isPng(content.steps[index - 1]!.screenshot!)).toBe(true);
  });
});

describe('web_check on a broken planner', () => {
  let id: string;

  beforeAll(async () => {
    // The agent's revision 1 replaces the working script with the broken one.
    const r = await host.resources.create({ kind: 'web.app', content: sampleApp('packing-planner'), operator: 'human:ann' });
    const broken = sampleApp('broken-planner').files['app.js'] as { text: string };
    await host.resources.commit(r.id, { baseRevision: 0, op: { type: 'put_file', path: 'app.js', text: broken.text }, operator: 'agent:a1' });
    id = r.id;
  });

  it('reports the throwing Add and the dead Undo as failing steps, with the console error', async () => {
    const { content } = await check({ resourceId: id, steps: TEN_STEPS });
    expect(content.revision).toBe(1);
    expect(content.passed).toBe(false);
    expect(failing(content.steps)).toEqual([6, 7, 9]);
    const [add, message, undone] = [content.steps[5]!, content.steps[6]!, content.steps[8]!];
    expect(add.error).toMatch(/^the page threw during this step: uncaught TypeError: messages\.doesNotFit is not a function .*app\.js:\d+/);
    expect(add.consoleErrors).toEqual([expect.stringMatching(/^uncaught TypeError: messages\.doesNotFit is not a function/)]);
    expect(message.error).toBe('expected the text of "#message" to contain "does not fit", it is "Packed \\"Tent\\" (12 L)." (after waiting 3000 ms)');
    expect(undone.error).toBe('expected 0 elements to match "#items li", found 1 (after waiting 3000 ms)');
    expect(content.consoleErrors).toEqual([{ step: 6, text: add.consoleErrors[0] }]);
    for (const step of [add, message, undone]) expect(isPng(step.screenshot!)).toBe(true);
  });

  it('checks an older revision when asked, and skips the rest after a failure with stopOnFailure', async () => {
    const old = await check({ resourceId: id, revision: 0, steps: TEN_STEPS.slice(0, 7) });
    expect(old.content.passed).toBe(true);
    const stopped = await check({ resourceId: id, steps: TEN_STEPS, stopOnFailure: true });
    expect(stopped.content.steps.map((s) => [s.index, s.ok, s.skipped ?? false])).toEqual([
      [1, true, false], [2, true, false], [3, true, false], [4, true, false], [5, true, false],
      [6, false, false], [7, false, true], [8, false, true], [9, false, true], [10, false, true],
    ]);
    expect(stopped.content.steps[6]!.error).toBe('not run: an earlier step failed (stopOnFailure)');
  });
});

describe('web_check boundaries', () => {
  it('serves only the app: a request elsewhere is blocked and reported, a missing file is a 404', async () => {
    const r = await host.resources.create({
      kind: 'web.app',
      content: {
        entry: 'index.html',
        files: {
          'index.html': { text: '<!doctype html><p id="out">waiting</p><img src="gone.png"><script src="app.js"></script>' },
          'app.js': { text: "fetch('https://example.com/track').then(() => { out.textContent = 'reached'; }, () => { out.textContent = 'blocked'; });" },
        },
      },
      operator: 'human:ann',
    });
    const { content } = await check({ resourceId: r.id, steps: [{ action: 'assert_text', selector: '#out', equals: 'blocked' }] });
    expect(content.steps[0]!.ok).toBe(true);
    expect(content.consoleErrors.map((e) => e.text)).toEqual(
      expect.arrayContaining([
        'blocked a request to https://example.com/track: a checked app may load only its own files',
        expect.stringMatching(/^console\.error: Failed to load resource: the server responded with a status of 404 .*gone\.png/),
      ]),
    );
  });

  it('runs the app in the sandbox the host serves it in: no localStorage', async () => {
    const r = await host.resources.create({
      kind: 'web.app',
      content: { entry: 'index.html', files: { 'index.html': { text: '<button onclick="localStorage.setItem(\'k\', \'v\')">Save</button>' } } },
      operator: 'human:ann',
    });
    const { content } = await check({ resourceId: r.id, steps: [{ action: 'click', selector: 'text=Save' }] });
    expect(content.steps[0]!.ok).toBe(false);
    expect(content.steps[0]!.error).toMatch(/the page threw during this step: uncaught SecurityError: .*localStorage/);
  });

  it('keeps at most 100 errors of an app that logs in a loop, saying how many it left out', async () => {
    const r = await host.resources.create({
      kind: 'web.app',
      content: { entry: 'index.html', files: { 'index.html': { text: '<script>for (let i = 0; i < 150; i++) console.error("tick " + i);</script>' } } },
      operator: 'human:ann',
    });
    const { content } = await check({ resourceId: r.id, steps: [{ action: 'wait', ms: 10 }] });
    expect(content.consoleErrors).toHaveLength(101);
    expect(content.consoleErrors[0]).toEqual({ step: 0, text: 'console.error: tick 0 (index.html:1)' });
    expect(content.consoleErrors[100]!.text).toBe('… 50 more errors not recorded (at most 100 are kept)');
    expect(content.load.ok).toBe(true);
    expect(content.passed).toBe(true);
  });

  it('reports an app without its entry page as not loaded, and runs no step', async () => {
    const r = await host.resources.create({ kind: 'web.app', content: { entry: 'index.html', files: { 'other.html': { text: '<p>x</p>' } } }, operator: 'human:ann' });
    const { content } = await check({ resourceId: r.id, steps: [{ action: 'screenshot' }] });
    expect(content.passed).toBe(false);
    expect(content.load).toMatchObject({ ok: false, error: 'the entry page "index.html" is not among the app\'s files' });
    expect(content.steps[0]).toMatchObject({ ok: false, skipped: true, error: 'not run: the app did not load' });
  });

  it('fails the load when the page throws while loading', async () => {
    const r = await host.resources.create({ kind: 'web.app', content: { entry: 'index.html', files: { 'index.html': { text: '<script>null.x</script><p>hi</p>' } } }, operator: 'human:ann' });
    const { content } = await check({ resourceId: r.id, steps: [{ action: 'assert_text', selector: 'p', equals: 'hi' }] });
    expect(content.load.ok).toBe(false);
    expect(content.load.error).toMatch(/^the page threw while loading: uncaught TypeError: Cannot read properties of null .*index\.html:1:\d+/);
    expect(content.steps[0]!.ok).toBe(true);
    expect(content.passed).toBe(false);
  });

  it('answers a tool error naming the Debian package when Chromium is missing', async () => {
    const r = await host.resources.create({ kind: 'web.app', operator: 'human:ann' });
    const result = await check({ resourceId: r.id, steps: [{ action: 'screenshot' }] }, webCheckTool({ executablePath: '/nonexistent/chromium' }));
    expect(result.isError).toBe(true);
    const error = (result.content as unknown as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('plugin_failed');
    expect(error.message).toMatch(/Chromium is not installed at \/nonexistent\/chromium.*Debian package "chromium"/);
  });

  it('answers a tool error for a resource that is not a web.app', async () => {
    const r = await host.resources.create({ kind: 'text', content: { text: 'hi' }, operator: 'human:ann' });
    const result = await check({ resourceId: r.id, steps: [{ action: 'screenshot' }] });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/is a text, not a web\.app/);
  });
});
