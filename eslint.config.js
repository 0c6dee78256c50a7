// ESLint for the whole repository: typescript-eslint, eslint-plugin-vue, the layer rule, and Prettier for
// formatting (eslint-config-prettier turns off every stylistic rule Prettier owns).
import js from '@eslint/js'
import prettier from 'eslint-config-prettier'
import vue from 'eslint-plugin-vue'
import globals from 'globals'
import tseslint from 'typescript-eslint'
import layers from './eslint/layers.js'

/**
 * Production files excused from the function-length and nesting limits, each with why
 * (docs/adr/0101-functions-read-at-once.md). A file leaves the list once it is shortened; one comes in only with its
 * reason. Tests and the testing folders are not held to the limits at all.
 * @type {[file: string, why: string][]}
 */
const LONG_FUNCTION_EXCEPTIONS = []

export default tseslint.config(
  {
    ignores: [
      'out/',
      'dist/',
      'native/',
      'node_modules/',
      'coverage/',
      'test-results/',
      'playwright-report/',
      '.tmp/',
      'reports/',
      '.stryker-tmp/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...vue.configs['flat/recommended'],
  {
    files: ['**/*.vue'],
    languageOptions: { parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.vue'] } },
  },
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { layers },
    rules: {
      'layers/boundaries': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    // Functions short enough to read at once, blocks at most three deep (docs/adr/0101-functions-read-at-once.md),
    // in the core, the shared code and the renderer alike (issue 45: composables as named parts).
    files: ['src/main/**/*.ts', 'src/shared/**/*.ts', 'src/renderer/**/*.ts', 'src/renderer/**/*.vue'],
    ignores: ['**/*.test.ts', 'src/main/**/testing/**'],
    rules: {
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
      'max-depth': ['error', 3],
    },
  },
  // None today: every production function reads at once. ESLint refuses an empty `files`.
  ...LONG_FUNCTION_EXCEPTIONS.map(([file]) => ({
    files: [file],
    rules: { 'max-lines-per-function': 'off', 'max-depth': 'off' },
  })),
  {
    files: ['src/renderer/**', 'src/shared/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Command-line entry points, scripts and benchmarks print to the terminal.
    files: [
      'scripts/**',
      'bench/**',
      'src/main/cli/**',
      'src/main/headless/cli.ts',
      'src/main/electron/index.ts',
      'src/main/simulation/cli.ts',
      'e2e/**',
    ],
    rules: { 'no-console': 'off' },
  },
  {
    // Tests read loosely typed JSON answers.
    files: ['**/*.test.ts', 'src/main/testing/**', 'e2e/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  prettier,
)
