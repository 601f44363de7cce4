// ESLint flat config: the recommended JavaScript and typescript-eslint rules over src/, test/ and bench/.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'data/', 'coverage/', 'dist/', 'sdk/dist/', 'mcp/dist/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Kysely's migrations are written against `Kysely<any>` (its documented signature), and tests read
    // untyped JSON bodies.
    files: ['src/db/migrations/**', 'src/db/migrator.ts', 'test/**', 'mcp/test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['bin/bizapi', '**/*.js', '**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
