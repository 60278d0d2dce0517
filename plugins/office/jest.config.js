/** @type {import('jest').Config} */
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'plugin-office',
  testTimeout: 60_000,
};
