// @ts-check
import { equivalentMutants } from './mutation-equivalents.mjs'

/**
 * Mutation testing of the core (`npm run test:mutation [-- --mutate FILE]`): StrykerJS with the vitest runner,
 * per-test coverage so each mutant runs only the tests that reach it, static mutants ignored. Not in CI (too
 * slow for two cores): a weekly habit, see the README's checks.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: true },
  mutate: [
    'src/main/lanes/**/*.ts',
    'src/main/store/**/*.ts',
    'src/main/use-cases/**/*.ts',
    'src/shared/chapter-number.ts',
    'src/main/sites/families/**/*.ts',
    'src/main/sites/dates.ts',
    '!**/*.test.ts',
  ],
  ignoreStatic: true,
  // Log lines are words for people, not behaviour (docs/mutation.md#log-lines); equivalent mutants are listed
  // below (docs/mutation.md#equivalent-mutants).
  plugins: ['@stryker-mutator/*', './scripts/stryker-log-ignorer.mjs', './scripts/stryker-equivalents.mjs'],
  ignorers: ['log-lines', 'equivalent-mutants'],
  equivalentMutants,
  coverageAnalysis: 'perTest',
  concurrency: 2,
  timeoutMS: 30_000,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.stryker-tmp',
  thresholds: { high: 90, low: 80, break: null },
}
