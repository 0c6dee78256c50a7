/**
 * The Lanes view shows a Site's updates page as its Lane last read it (ADR 0165, 0200): when, how many entries,
 * when next — or that it fell back, and why. A Site whose Lane reads none says nothing of it.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createAdmin } from './admin'
import { startCore, type Core } from '../core'
import { FeedWatch, type FeedStatus } from '../lanes/feed'
import { silentLog } from '../log'
import { KNOWN_SITES, knownSiteEntry } from '../sites/known-sites'
import { SITES_FILE } from '../sites/sites-file'
import { ensureLane } from '../store/lanes'
import { FakeClock } from '../testing/clock'
import { tempDir } from '../testing/store'
import type { AdminApi } from '../../shared/admin-api'

const [site] = KNOWN_SITES.sites
let dir: { dir: string; remove(): void }
let core: Core
let admin: AdminApi
const pace = { restMs: 3_600_000, ceilingMs: 86_400_000, minGapMs: 5_000 }

beforeEach(async () => {
  dir = tempDir()
  writeFileSync(join(dir.dir, SITES_FILE), JSON.stringify({ sites: [knownSiteEntry(site!, new Set())] }))
  core = await startCore({ dataDir: dir.dir, clock: new FakeClock(), log: silentLog, sites: [] })
  admin = createAdmin({ core, shell: 'headless', listening: () => 'http://127.0.0.1:0' })
  await ensureLane(core.store.db, site!.key)
})
afterEach(async () => {
  await core.stop()
  dir.remove()
})

describe("a Lane's updates page in the Lanes view", () => {
  it('is absent while the Lane reads none; then says what its last read showed, or why it fell back', async () => {
    const feedOf = async () => (await admin.lanes()).find((l) => l.site === site!.key)?.feed
    expect(await feedOf()).toBeUndefined()
    // The Lane keeps its page's state where the core's window reads it (lane.ts `feedWatch`).
    const watch = new FeedWatch(pace)
    ;(core.feeds as Map<string, FeedStatus>).set(site!.key, watch.status)
    const t = 1_800_000_000_000
    const entry = (n: number) => ({ seriesUrl: `https://a.example/manga/s${n}`, chapter: n, label: `Chapter ${n}` })
    // A first read: every line new, so the next read comes a quarter rest later.
    watch.parsed([entry(1), entry(2), entry(3)], t, 0, pace, 400)
    expect(await feedOf()).toEqual({ state: 'reading', reason: '', lastReadAt: t, entries: 3, nextReadAt: t + pace.restMs / 4 })
    // A failed read is tried again after the page's interval, twice as long for each failure in a row (ADR 0231).
    watch.failed('HTTP 503', t + 60_000, pace)
    expect(await feedOf()).toMatchObject({ state: 'broken', reason: 'HTTP 503', lastReadAt: t, nextReadAt: t + 60_000 + pace.restMs / 4 })
    watch.failed('HTTP 503', t + 960_000, pace)
    expect(await feedOf()).toMatchObject({ state: 'broken', lastReadAt: t, nextReadAt: t + 960_000 + pace.restMs / 2 })
  })
})
