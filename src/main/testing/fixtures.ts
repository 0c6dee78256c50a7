/**
 * Vitest fixtures (`test.extend`) for the set-ups the unit tests share. A test names what it needs
 * (`async ({ store }) => …`); each fixture is made for that test only and undone after it, the last made first —
 * everything is undone through `defer`, so a directory is removed only after what a test started in it is stopped.
 * Used only by tests; the app and the core have fixtures of their own in app-fixtures.ts (they load the whole app).
 */
import { test as base } from 'vitest'
import { startFixtureSite } from '../demo/fixture-site'
import { openTestStore, tempDir } from './store'

/** Runs a cleanup after the test (the last deferred first), whether it passed or not. */
export type Defer = (cleanup: () => unknown) => void

export const test = base
  // eslint-disable-next-line no-empty-pattern -- a fixture with no fixtures of its own
  .extend('defer', async ({}, { onCleanup }) => {
    const cleanups: Array<() => unknown> = []
    onCleanup(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
    })
    const defer: Defer = (cleanup) => void cleanups.push(cleanup)
    return defer
  })
  /** A fresh temporary directory with the given name prefix, removed after the test. */
  .extend('makeDir', ({ defer }) => (prefix?: string): string => {
    const made = tempDir(prefix)
    defer(made.remove)
    return made.dir
  })
  /** A fresh temporary data directory, removed after the test. */
  .extend('dataDir', ({ makeDir }) => makeDir())
  /** A real SQLite store (every migration applied, its clock at 1,000) in a directory of its own; closed after the test. */
  .extend('store', ({ defer }) => {
    const store = openTestStore()
    defer(() => store.dispose())
    return store
  })
  /** The fixture site server on a free loopback port, on the real clock; closed after the test. */
  .extend('fixtureSite', async ({ defer }) => {
    const site = await startFixtureSite()
    defer(() => site.close())
    return site
  })

export { describe, expect } from 'vitest'
export const it = test
