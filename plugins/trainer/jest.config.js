/** @type {import('jest').Config} */
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'plugin-trainer',
  testTimeout: 60_000,
};
