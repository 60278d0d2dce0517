/** @type {import('jest').Config} */
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'host',
  testTimeout: 60_000,
  // Jest's default on a 2-core CI machine is one worker, and most of this suite waits on processes,
  // disks, servers and timers rather than computing: with one worker the host's suite ran alone
  // for most of `npm test` with a core idle. Two workers use both (the plugins' suites run beside
  // it at first either way).
  maxWorkers: 2,
};
