// Reads the output of `nx run-many --outputStyle=stream` and prints, for each failed task, what
// says why: jest's failure blocks (from "●" to the next test-file line) or, for a type-check or lint
// failure, the task's last lines. Used by tools/check.sh after a failing run.
import { readFileSync } from 'node:fs';
import { cpus, tmpdir, userInfo } from 'node:os';

const MAX_LINES_PER_TASK = 150;
const strip = (line) => line.replace(/\x1b\[[0-9;]*m/g, '');
const lines = readFileSync(process.argv[2], 'utf8').split('\n').map(strip);

// Nx lists them after "Failed tasks:" as "- project:target".
const failed = [];
const start = lines.findIndex((line) => line.trim() === 'Failed tasks:');
if (start >= 0) {
  for (const line of lines.slice(start + 1)) {
    const match = /^\s*-\s+(\S+):(\S+)\s*$/.exec(line);
    if (match) failed.push({ project: match[1], target: match[2] });
    else if (line.trim() !== '' && failed.length > 0) break;
  }
}

console.log('\n==================== why it failed ====================');
// What differs between machines and has bitten before (a long $TMPDIR breaks Unix socket paths).
console.log(`machine: node ${process.version}, user ${userInfo().username}, ${cpus().length} × ${cpus()[0]?.model ?? '?'}, tmpdir ${tmpdir()}`);
if (failed.length === 0) console.log('(no failed task named by nx: read the output above)');
for (const { project, target } of failed) {
  const prefix = `${project}: `;
  const own = lines.filter((line) => line.startsWith(prefix)).map((line) => line.slice(prefix.length));
  const blocks = target === 'test' ? jestFailures(own) : [];
  const shown = (blocks.length > 0 ? blocks : own.slice(-60)).slice(0, MAX_LINES_PER_TASK);
  console.log(`\n--- ${project}:${target} ---`);
  for (const line of shown) console.log(line);
}

/** The lines of each "● suite › test" block, and the FAIL lines naming the files. */
function jestFailures(own) {
  const out = [];
  let inBlock = false;
  for (const line of own) {
    if (/^\s*FAIL\s/.test(line)) out.push(line);
    if (/^\s*● /.test(line)) inBlock = !/^\s*● Console\s*$/.test(line);
    else if (/^\s*(PASS|FAIL)\s/.test(line) || /^Test Suites:/.test(line)) inBlock = false;
    if (inBlock) out.push(line);
    if (/^(Test Suites|Tests):/.test(line)) out.push(line);
  }
  return out;
}
