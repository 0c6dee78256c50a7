/**
 * The tests' fixtures themselves: each is made for the test that names it and undone after it, the last made
 * first, so nothing a test started outlives it and no directory goes before what runs in it. The second test of
 * each pair looks at what the first left (tests in a file run in order).
 */
import { existsSync } from 'node:fs'
import { it as appIt } from './app-fixtures'
import { describe, expect, it } from './fixtures'
import { seedReader } from './store'

const seen: { dataDir: string; storeDir: string; site: string; app: string; order: string[]; dirAtCleanup?: boolean } = {
  dataDir: '',
  storeDir: '',
  site: '',
  app: '',
  order: [],
}

describe('the fixtures', () => {
  it('give the test a data directory, a store on a real file and the fixture site', async ({ dataDir, store, fixtureSite, defer }) => {
    expect(existsSync(dataDir)).toBe(true)
    expect(await seedReader(store.db, 'aiko')).toBeGreaterThan(0)
    expect((await fetch(`${fixtureSite.origin}/madara/manga/fixtures/`)).status).toBe(200)
    Object.assign(seen, { dataDir, storeDir: store.dir, site: fixtureSite.origin })
    defer(() => seen.order.push('deferred first'))
    defer(() => {
      seen.order.push('deferred last')
      seen.dirAtCleanup = existsSync(dataDir)
    })
  })

  it('undo them after it: the last deferred first, and the directory after what was deferred', async () => {
    expect(seen.order).toEqual(['deferred last', 'deferred first'])
    expect(seen.dirAtCleanup).toBe(true)
    expect(existsSync(seen.dataDir)).toBe(false)
    expect(existsSync(seen.storeDir)).toBe(false)
    await expect(fetch(seen.site)).rejects.toThrow()
  })

  appIt('start the app, whose listener ends with the test', async ({ dataDir, startTestApp }) => {
    const app = await startTestApp({ dataDir })
    expect((await fetch(`${app.origin}/api/v1/bookmarks`)).status).toBe(401)
    seen.app = app.origin
  })

  it('and the app is stopped before the next test', async () => {
    await expect(fetch(`${seen.app}/api/v1/bookmarks`)).rejects.toThrow()
  })
})
