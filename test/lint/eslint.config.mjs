// Lint: type-aware rules, so that a forgotten await (no-floating-promises) fails the build.
// Kept under test/ so the repository's top level stays as planned; `npm run lint` points at it.
// The layering (which layer may import what) is checked here for every layer: layers.mjs.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { dirname } from 'node:path';
import { layerConfigs } from './layers.mjs';

const root = dirname(dirname(import.meta.dirname));

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '*.vsix', 'test/e2e/.cache/**', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: root } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The common layer is the product's portable heart: no escape hatches there.
    files: ['src/*/common/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'error' },
  },
  ...layerConfigs,
  {
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      // node:test's describe/test return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite', 'before', 'after', 'beforeEach', 'afterEach'] },
          ],
        },
      ],
    },
  },
);
