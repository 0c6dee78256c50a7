/**
 * Vitest fixtures that start the app or the core (fixtures.ts has the light ones: a data directory, a store, the
 * fixture site). Each is a starter: a test may start several, on directories of its choosing; every one started
 * is stopped after the test, before the directories it ran in are removed.
 */
import { startApp, type AppOptions, type RunningApp } from '../app'
import { startCore, type Core, type CoreOptions } from '../core'
import { startFixtureSite } from '../demo/fixture-site'
import { fixtureSites } from '../demo/fixture-sites'
import { silentLog } from '../log'
import { FakeClock } from './clock'
import { test as base } from './fixtures'
import { tempDir } from './store'

/** The app's options a test gives: the data directory, and whatever differs from a quiet headless app. */
export type TestAppOptions = Partial<AppOptions> & Pick<AppOptions, 'dataDir'>
export type TestCoreOptions = Partial<CoreOptions> & Pick<CoreOptions, 'dataDir'>

export const test = base
  /**
   * Starts the headless app on a fake clock, the sync endpoint on a free port, silent, with no Sites unless
   * given; stopped after the test.
   */
  .extend('startTestApp', ({ defer }) => async (options: TestAppOptions): Promise<RunningApp> => {
    const app = await startApp({ shell: 'headless', log: silentLog, clock: new FakeClock(), port: 0, sites: [], ...options })
    defer(() => app.stop())
    return app
  })
  /** Starts the core on a fake clock, silent, with no Sites unless given; stopped after the test. */
  .extend('startTestCore', ({ defer }) => async (options: TestCoreOptions): Promise<Core> => {
    const core = await startCore({ clock: new FakeClock(), log: silentLog, sites: [], ...options })
    defer(() => core.stop())
    return core
  })

/**
 * One app for all the tests of a file, as the owner's window meets it: the fixture site (`site`) and the headless app
 * on it with the Lanes off (`app`, its store's handle `db`), both on one fake clock (`clock`); stopped after the file's
 * last test. The tests of such a file share what they write.
 */
export const fileAppTest = test
  .extend('clock', { scope: 'file' }, () => new FakeClock())
  .extend('site', { scope: 'file' }, async ({ clock }, { onCleanup }) => {
    const site = await startFixtureSite({ now: () => clock.now() })
    onCleanup(() => site.close())
    return site
  })
  .extend('app', { scope: 'file' }, async ({ clock, site }, { onCleanup }) => {
    const dir = tempDir()
    const app = await startApp({
      shell: 'headless',
      dataDir: dir.dir,
      port: 0,
      log: silentLog,
      clock,
      sites: fixtureSites(site.host),
      lanes: false,
    })
    onCleanup(async () => {
      await app.stop()
      dir.remove()
    })
    return app
  })
  .extend('db', ({ app }) => app.core.store.db)

export { describe, expect } from 'vitest'
export const it = test
