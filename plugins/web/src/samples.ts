import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileProblems, type WebApp, type WebFile } from './app/content';
import { isTextPath } from './app/media-types';
import { pathProblem } from './app/paths';
import type { Step } from './check/steps';

/** The sample apps shipped with the plugin (`samples/<name>/`): a working one and a broken one. */
export type SampleName = 'packing-planner' | 'broken-planner';

export const SAMPLES_DIR = join(__dirname, '..', 'samples');

/** A sample app's content: the packing planner, or its broken variant (a throwing Add, a dead Undo). */
export function sampleApp(name: SampleName): WebApp {
  return appFromFolder(join(SAMPLES_DIR, name));
}

/**
 * The review a person would make of the packing planner, as `web_check` steps: pack a tent, try a
 * cooler that does not fit (refused with a message), undo the tent. The tests and the benchmark run it.
 */
export const PACKING_PLANNER_STEPS: readonly Step[] = [
  { action: 'wait', selector: '#add' },
  { action: 'type', selector: '#name', text: 'Tent' },
  { action: 'type', selector: '#volume', text: '12' },
  { action: 'click', selector: '#add' },
  { action: 'select', selector: '#preset', value: 'cooler' },
  { action: 'click', selector: '#add' },
  { action: 'assert_text', selector: '#message', contains: 'does not fit' },
  { action: 'click', selector: 'text=Undo' },
  { action: 'assert_dom', selector: '#items li', count: 0 },
  { action: 'screenshot' },
];

/**
 * Builds a `web.app` content from the files under `dir` (recursively): text files by extension
 * as text, the rest as base64. Throws when a file could not be part of an app (its name, its size).
 */
export function appFromFolder(dir: string, entry = 'index.html'): WebApp {
  const files: Record<string, WebFile> = {};
  for (const absolute of listFiles(dir)) {
    const path = relative(dir, absolute).split(sep).join('/');
    const data = readFileSync(absolute);
    const file: WebFile = isTextPath(path) ? { text: data.toString('utf8') } : { base64: data.toString('base64') };
    const problems = [pathProblem(path), ...fileProblems(path, file)].filter((p) => p !== undefined);
    if (problems.length > 0) throw new Error(`${absolute} cannot be part of a web.app: ${problems.join('; ')}`);
    files[path] = file;
  }
  if (!files[entry]) throw new Error(`${dir} has no ${entry}`);
  return { entry, files };
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => (entry.isDirectory() ? listFiles(join(dir, entry.name)) : entry.isFile() ? [join(dir, entry.name)] : []));
}
