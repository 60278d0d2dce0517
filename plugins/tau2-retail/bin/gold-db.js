#!/usr/bin/env node
// Replays a τ²-bench retail task's gold actions through the suite's tools; writes the final database as canonical JSON.
// usage: node plugins/tau2-retail/bin/gold-db.js TASK_ID [--data DIR] [--out FILE]   (needs the build: npx nx run @cowork/plugin-tau2-retail:build)
process.exitCode = require('../dist/cli').goldDbCli(process.argv.slice(2));
