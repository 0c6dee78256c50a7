/**
 * The tests `npm run test:mutation` runs against each mutant: the core's own (Lanes, store, use-cases, Sites,
 * chapter numbers, the simulation's checker), without the ones that start processes, browsers or the built app,
 * which test the shells rather than the core and would make every mutant cost minutes.
 */
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: [
      'src/main/lanes/**/*.test.ts',
      'src/main/store/**/*.test.ts',
      'src/main/use-cases/**/*.test.ts',
      'src/main/sites/**/*.test.ts',
      'src/shared/**/*.test.ts',
    ],
    // backups.test.ts runs: it makes real backups of a store in a temp dir in well under a second, and only it
    // pins retention's calendar weeks and the checked copy (docs/mutation.md#todays-scores).
    // The storage-fault tests run too: a tmpfs mounted, filled and emptied costs tens of milliseconds (as root; as
    // another user they skip themselves, and the store's faults are then pinned by storage-watch.test.ts alone).
    exclude: ['**/*.process.test.ts', '**/*.integration.test.ts'],
    environment: 'node',
    // Timing tests skip themselves in a mutation run: instrumented code says nothing about the parser's speed.
    env: { MB_MUTATION_RUN: '1' },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
})
