import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    // The layering rule of DESIGN §3: front ends share only the contract with the server.
    files: ['webapp/**', 'admin/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['**/server/**', '**/db/**', '**/bot/**'] }],
    },
  },
  {
    // The front ends follow the Rules of React (hooks and the compiler's checks) and stay typed.
    files: ['webapp/**/*.{ts,tsx}', 'admin/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
    rules: { ...reactHooks.configs.flat.recommended.rules, '@typescript-eslint/no-explicit-any': 'error' },
  },
);
