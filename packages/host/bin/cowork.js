#!/usr/bin/env node
'use strict';
// The `cowork` command. The host is built to dist/ by `npm run build` (the README's commands do it).
require('../dist/cli/main.js').main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(error);
    process.exitCode = 1;
  },
);
