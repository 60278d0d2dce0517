import { randomBytes } from 'node:crypto';
import { join, relative } from 'node:path';
import { CoworkError, asToolResult, defineTool, type Json, type ToolDefinition } from '@cowork/host';
import type { WebApp } from '../app/content';
import { runCheck } from './run-check';
import { MAX_STEPS, STEP_SCHEMA, type Step } from './steps';

export type CheckInput = {
  resourceId: string;
  revision?: number;
  steps: Step[];
  viewport?: { width: number; height: number };
  stopOnFailure?: boolean;
};

/** Resource ids become a folder name under artifacts/: only these characters may. */
const SAFE_ID = /^[A-Za-z0-9_-]{1,100}$/;

/**
 * `web_check`: tries a `web.app` revision in headless Chromium through a scripted interaction and
 * reports each step, the page's errors and screenshots. The app's own failures are the check's
 * findings (`passed: false`); only a check that could not run (no such resource, no Chromium)
 * is a tool error.
 */
export function webCheckTool(options: { executablePath?: string } = {}): ToolDefinition<CheckInput> {
  return defineTool<CheckInput>({
    name: 'web_check',
    description: [
      'Tries a web.app in headless Chromium, as a reviewer would before accepting it: opens the revision',
      '(default the newest), runs the steps in order and reports each one (ok, error, console errors, screenshot).',
      'Actions: click, type, press, select, wait (selector or ms), assert_text (contains or equals), assert_dom',
      '(exists, count, visible, enabled, checked, value, attribute), screenshot. Each step waits up to timeoutMs',
      '(default 3000, at most 30000). A step also fails when the page throws an uncaught error during it.',
      'Every step runs even after a failure unless stopOnFailure. Screenshots (on failure and screenshot steps) are',
      'written under artifacts/checks/<resourceId>/<runId>/ in the workspace.',
    ].join(' '),
    inputSchema: {
      type: 'object',
      properties: {
        resourceId: { type: 'string', minLength: 1 },
        revision: { type: 'integer', minimum: 0, description: 'The revision to check; default the newest.' },
        steps: { type: 'array', minItems: 1, maxItems: MAX_STEPS, items: STEP_SCHEMA },
        viewport: {
          type: 'object',
          properties: { width: { type: 'integer', minimum: 200, maximum: 3840 }, height: { type: 'integer', minimum: 200, maximum: 2160 } },
          required: ['width', 'height'],
          additionalProperties: false,
        },
        stopOnFailure: { type: 'boolean', description: 'Skip the remaining steps after the first failure (default false).' },
      },
      required: ['resourceId', 'steps'],
      additionalProperties: false,
    },
    permissions: [{ access: 'read' }],
    handler: (input, context) =>
      asToolResult(async () => {
        const resource = await context.host.resources.get(input.resourceId);
        if (resource.kind !== 'web.app') {
          throw new CoworkError('invalid_input', `resource ${input.resourceId} is a ${resource.kind}, not a web.app; web_check tries web apps only`, { field: 'resourceId' });
        }
        if (!SAFE_ID.test(resource.id)) throw new CoworkError('invalid_input', `resource id ${JSON.stringify(resource.id)} cannot name a folder`, { field: 'resourceId' });
        const revision = input.revision ?? resource.revision;
        const app = (revision === resource.revision ? resource.content : await context.host.resources.contentAt(resource.id, revision)) as WebApp;
        const runId = `run-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
        const screenshotDir = join(context.host.workspaceDir, 'artifacts', 'checks', resource.id, runId);
        const { steps: plan, viewport, stopOnFailure } = input;
        const result = await runCheck(app, { steps: plan, viewport, stopOnFailure, screenshotDir, executablePath: options.executablePath, signal: context.signal });
        const steps = result.steps.map((step) => (step.screenshot ? { ...step, screenshot: relative(context.host.workspaceDir, step.screenshot) } : step));
        return { resourceId: resource.id, revision, runId, ...result, steps } as Json;
      }),
  });
}
