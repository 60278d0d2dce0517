/** @type {import('jest').Config} */
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'plugin-web',
  testTimeout: 60_000,
};
