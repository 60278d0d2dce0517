// One lint config for the monorepo. Rules stay few: the type checker does most of the work.
import tseslint from 'typescript-eslint';
import layers from './tools/eslint-rules/layers.mjs';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/coverage/**', '**/*.js', '**/*.mjs'] },
  ...tseslint.configs.recommended,
  {
    plugins: { cowork: layers },
    rules: {
      // Host layers import downward only; plugins import only the plugin entry (tools/eslint-rules/layers.mjs).
      'cowork/layers': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportAllDeclaration', message: 'Use named exports, not export *.' },
      ],
    },
  },
);
