/**
 * The web plugin: small web apps people and agents edit together (`web.app`), served live by the
 * host, exported as a zip, and tried in headless Chromium by the `web_check` tool.
 */
import { definePlugin } from '@cowork/host';
import { webAppKind } from './app/kind';
import { sharedChromium } from './check/browser';
import { webCheckTool } from './check/tool';
import { webSuite } from './suite';

export { webAppKind } from './app/kind';
export { webCheckTool, type CheckInput } from './check/tool';
export { runCheck, type CheckOptions, type CheckResult, type StepResult } from './check/run-check';
export { launchBrowser, sharedChromium, DEBIAN_CHROMIUM, type CheckBrowser } from './check/browser';
export type { Step } from './check/steps';
export type { BinaryFile, TextFile, WebApp, WebFile } from './app/content';
export type { WebAppOp } from './app/ops';
export { appFile } from './app/serve';
export { zipWebApp } from './app/export-zip';
export { webSuite } from './suite';
export { appFromFolder, PACKING_PLANNER_STEPS, sampleApp, type SampleName } from './samples';

export const plugin = definePlugin({
  name: 'web',
  version: '0.1.0',
  description: 'Web apps: files edited by fine-grained ops, served live at /apps/<id>/, exported as a zip, checked in headless Chromium.',
  kinds: [webAppKind],
  tools: [webCheckTool()],
  // The web benchmark suite (suite/): tasks on web apps, judged in Chromium, by files and by the zip export.
  suites: [webSuite],
  // A host keeps one Chromium for its checks (each in a fresh context) instead of starting one per check.
  start: () => sharedChromium().acquire(),
  close: () => sharedChromium().release(),
});
