import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import Ajv from 'ajv';
import { CoworkError } from '../errors';
import type { SuiteDefinition, SuiteTask } from '../plugins/suite';
import { schemaProblems } from '../util/json-schema';

/** The suffix of a task file in a suite's folder. */
export const TASK_FILE_SUFFIX = '.task.json';

const TASK_ID = '^[a-z0-9][a-z0-9-]{0,63}$';

/** The JSON Schema of a task file (`<dir>/<id>.task.json`); the README describes each field. */
export const TASK_FILE_SCHEMA = {
  type: 'object',
  properties: {
    id: { type: 'string', pattern: TASK_ID },
    split: { enum: ['dev', 'heldout'] },
    request: { type: 'string', minLength: 1 },
    resources: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string', pattern: '^[a-z][a-z0-9_-]{0,63}$' },
          kind: { type: 'string', minLength: 1 },
          content: {},
          file: { type: 'string', minLength: 1 },
          ops: { type: 'array' },
        },
        required: ['name', 'kind'],
        additionalProperties: false,
      },
    },
    budget: {
      type: 'object',
      properties: { tokens: { type: 'integer', minimum: 1 }, turns: { type: 'integer', minimum: 1 }, seconds: { type: 'number', exclusiveMinimum: 0 } },
      additionalProperties: false,
    },
    rubric: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        properties: {
          id: { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]{0,63}$' },
          description: { type: 'string', minLength: 1 },
          points: { type: 'number', exclusiveMinimum: 0 },
          check: { type: 'string', minLength: 1 },
          args: {},
        },
        required: ['id', 'description', 'points', 'check'],
        additionalProperties: false,
      },
    },
    data: {},
  },
  required: ['id', 'split', 'request', 'resources', 'rubric'],
  additionalProperties: false,
} as const;

const validateTaskFile = new Ajv({ allErrors: true, strict: false }).compile(TASK_FILE_SCHEMA);

/**
 * A suite's tasks: its `tasks()` when it lists its own (a public benchmark's data), else every
 * `*.task.json` in its folder, sorted by name. Every task is checked before any runs: the file's
 * shape, its id against its file name, rubric items naming checks the suite has, unique item ids,
 * and fixture files that exist inside the suite's folder. A problem is `invalid_input` naming the
 * file, and nothing runs.
 */
export async function loadSuiteTasks(suite: SuiteDefinition, options: { data?: string } = {}): Promise<SuiteTask[]> {
  const tasks = suite.tasks ? [...(await suite.tasks(options))] : readTaskFiles(suite.dir);
  const seen = new Set<string>();
  for (const task of tasks) {
    const where = suite.tasks ? `task ${task.id} of suite ${suite.name}` : join(suite.dir, `${task.id}${TASK_FILE_SUFFIX}`);
    if (seen.has(task.id)) throw invalidTask(where, [`task id ${task.id} appears twice`]);
    seen.add(task.id);
    const problems: string[] = [];
    const items = new Set<string>();
    for (const item of task.rubric) {
      if (items.has(item.id)) problems.push(`rubric item ${item.id} appears twice`);
      items.add(item.id);
      if (!Object.hasOwn(suite.checks, item.check)) problems.push(`rubric item ${item.id} names check ${JSON.stringify(item.check)}, which suite ${suite.name} does not have (it has: ${Object.keys(suite.checks).join(', ')})`);
    }
    const names = new Set<string>();
    for (const resource of task.resources) {
      if (names.has(resource.name)) problems.push(`resource name ${resource.name} appears twice`);
      names.add(resource.name);
      if (resource.file !== undefined && resource.content !== undefined) problems.push(`resource ${resource.name} gives both content and file; give one`);
      if (resource.file !== undefined) {
        const path = resolve(suite.dir, resource.file);
        if (relative(suite.dir, path).startsWith('..')) problems.push(`resource ${resource.name}: fixture ${resource.file} is outside the suite's folder`);
        else if (!existsSync(path)) problems.push(`resource ${resource.name}: fixture file ${resource.file} does not exist in ${suite.dir}`);
      }
    }
    for (const name of requestPlaceholders(task.request)) {
      if (!names.has(name)) problems.push(`the request names {{resource:${name}}}, which is not one of the task's resources`);
    }
    if (problems.length > 0) throw invalidTask(where, problems);
  }
  return tasks;
}

/** A task resource's id in a request, as a session script names it. */
const RESOURCE_PLACEHOLDER = /\{\{resource:([^}]*)\}\}/g;

/** The resource names a request refers to as `{{resource:NAME}}`. */
function requestPlaceholders(request: string): string[] {
  return [...request.matchAll(RESOURCE_PLACEHOLDER)].map((m) => m[1]!);
}

/** The request Main gets: each `{{resource:NAME}}` replaced by that resource's id in this trial. */
export function requestWithIds(request: string, ids: Readonly<Record<string, string>>): string {
  return request.replace(RESOURCE_PLACEHOLDER, (whole, name: string) => ids[name] ?? whole);
}

function readTaskFiles(dir: string): SuiteTask[] {
  if (!existsSync(dir)) throw new CoworkError('invalid_input', `the suite's folder ${dir} does not exist`, { dir });
  const files = readdirSync(dir)
    .filter((name) => name.endsWith(TASK_FILE_SUFFIX))
    .sort();
  return files.map((name) => {
    const file = join(dir, name);
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw invalidTask(file, [`not valid JSON: ${(error as Error).message}`]);
    }
    if (!validateTaskFile(parsed)) throw invalidTask(file, schemaProblems(validateTaskFile));
    const task = parsed as unknown as SuiteTask;
    const expected = name.slice(0, -TASK_FILE_SUFFIX.length);
    if (task.id !== expected) throw invalidTask(file, [`id ${JSON.stringify(task.id)} must equal the file's name, ${JSON.stringify(expected)}`]);
    return task;
  });
}

function invalidTask(where: string, problems: readonly string[]): CoworkError {
  return new CoworkError('invalid_input', `${where}: ${problems.join('; ')}`, { file: where, problems: [...problems] });
}
