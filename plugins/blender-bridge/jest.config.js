/** @type {import('jest').Config} */
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'plugin-blender-bridge',
  testTimeout: 60_000,
};
