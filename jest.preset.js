// Shared jest settings for every project: swc for speed (types are checked by the separate
// `typecheck` target), tests under test/, and temp files cleaned by the tests themselves.
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.(t|j)sx?$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!three/)'],
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  moduleFileExtensions: ['ts', 'js', 'json'],
};
