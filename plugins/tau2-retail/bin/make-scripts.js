#!/usr/bin/env node
// Writes reference session scripts (the gold actions as Main's tool calls) for the tau2-retail suite, made from the data.
// usage: node plugins/tau2-retail/bin/make-scripts.js --out DIR [--data DIR] [--tasks ID,ID]
process.exitCode = require('../dist/cli').makeScriptsCli(process.argv.slice(2));
