/** @type {import('jest').Config} */
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'plugin-tau2-retail',
  testTimeout: 120_000,
};
