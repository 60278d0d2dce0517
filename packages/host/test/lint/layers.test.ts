/**
 * Invariant: the layer rule (tools/eslint-rules/layers.mjs, run by `npm test`'s lint) refuses an
 * upward import in the host, a plugin importing host internals or another entry than the plugin
 * API, and a plugin importing another plugin; it accepts the imports the tree is built of. The
 * planted files are linted as text under their would-be paths: nothing is written.
 */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '..', '..', '..', '..');
const eslintBin = join(root, 'node_modules', 'eslint', 'bin', 'eslint.js');

/** The layer rule's messages for `code` linted as if it were `file`, by the eslint command `npm test` runs. */
function layerProblems(file: string, code: string): string[] {
  const run = spawnSync(process.execPath, [eslintBin, '--stdin', '--stdin-filename', join(root, file), '--format', 'json'], { cwd: root, input: code, encoding: 'utf8' });
  const [result] = JSON.parse(run.stdout) as { messages: { ruleId: string | null; message: string }[] }[];
  return result!.messages.filter((m) => m.ruleId === 'cowork/layers').map((m) => m.message);
}

it.each([
  ['an upward import in the host', 'packages/host/src/util/planted.ts', "import { Host } from '../host';\nexport const x = Host;\n", /util may not import host, a layer above it/],
  ['the runtime importing the host that assembles it', 'packages/host/src/agents/planted.ts', "import type { Host } from '../host';\nexport type X = Host;\n", /agents may not import host/],
  ['the store importing the resource protocol', 'packages/host/src/store/planted.ts', "export type X = import('../resources/commit').Change;\n", /store may not import resources/],
  ['a plugin importing host internals', 'plugins/web/src/planted.ts', "import { jsonEqual } from '../../../packages/host/src/util/json';\nexport const x = jsonEqual;\n", /reaches outside its own folder/],
  ['a plugin\'s source importing the page test kit', 'plugins/web/src/planted.ts', "import { startPageServer } from '@cowork/host/testkit/page';\nexport const x = startPageServer;\n", /import only the plugin entry @cowork\/host/],
  ['a plugin importing the embedding entry', 'plugins/web/src/planted.ts', "import { Host } from '@cowork/host/embed';\nexport const x = Host;\n", /import only the plugin entry @cowork\/host/],
  ['a plugin importing another plugin', 'plugins/cad/src/planted.ts', "import { plugin } from '@cowork/plugin-office';\nexport const x = plugin;\n", /may not import another plugin/],
  ['a deep import of a build output', 'bench/src/planted.ts', "import { Host } from '@cowork/host/dist/host';\nexport const x = Host;\n", /not its files/],
])('refuses %s', (_name, file, code, message) => {
  expect(layerProblems(file, code)).toEqual([expect.stringMatching(message)]);
});

it.each([
  ['a host module importing a lower layer', 'packages/host/src/server/planted.ts', "import { readTaskView } from '../agents/task-view';\nexport const x = readTaskView;\n"],
  ['a plugin importing the plugin API', 'plugins/web/src/planted.ts', "import { definePlugin } from '@cowork/host';\nexport const x = definePlugin;\n"],
  ["a plugin's test using the testkit", 'plugins/web/test/planted.test.ts', "import { openTempHost } from '@cowork/host/testkit';\nexport const x = openTempHost;\n"],
  ["a plugin's test using the page test kit", 'plugins/web/test/planted.test.ts', "import { startPageServer } from '@cowork/host/testkit/page';\nexport const x = startPageServer;\n"],
])('accepts %s', (_name, file, code) => {
  expect(layerProblems(file, code)).toEqual([]);
});
