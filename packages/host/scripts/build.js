// The host's build: compile src/ to a fresh dist/, copy what the compiler does not (the page's static
// files, the demo recording), and record the digest of the src/ it was built from, which the tests
// that run dist/ compare against the src/ on disk (see src/util/source-digest.ts).
'use strict';
const { cpSync, rmSync, writeFileSync } = require('node:fs');
const { execFileSync } = require('node:child_process');
const { join } = require('node:path');

const hostDir = join(__dirname, '..');
const dist = join(hostDir, 'dist');
rmSync(dist, { recursive: true, force: true });
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(hostDir, 'tsconfig.build.json')], { stdio: 'inherit' });
cpSync(join(hostDir, 'src/server/web'), join(dist, 'server/web'), { recursive: true });
cpSync(join(hostDir, 'src/server/demo/demo-recording.jsonl'), join(dist, 'server/demo/demo-recording.jsonl'));
const { sourceDigest, SOURCE_DIGEST_FILE } = require(join(dist, 'util/source-digest.js'));
writeFileSync(join(dist, SOURCE_DIGEST_FILE), `${sourceDigest(join(hostDir, 'src'))}\n`);
