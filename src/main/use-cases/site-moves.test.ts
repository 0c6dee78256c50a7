/**
 * A Site that moved (docs/adr/0112-a-permanent-redirect-is-a-proposal.md), end to end in the core: the fixture
 * site answers a permanent redirect to another loopback host; the check refuses to follow it and records a
 * proposal, the owner sees it on the Lanes and accepts it through the admin contract; sites.json and the running
 * Site then pin the new host first, and the next check reads the Series there.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createAdmin } from '../admin/admin'
import { startCore, type Core } from '../core'
import { startFixtureSite, type FixtureSite } from '../demo/fixture-site'
import { checkSeries } from '../lanes/check'
import { silentLog } from '../log'
import { loadSites, SITES_FILE } from '../sites/sites-file'
import { ensureLane } from '../store/lanes'
import { readerBookmarks } from '../store/bookmarks'
import { presentBookmark } from '../reads/present'
import { FakeClock } from '../testing/clock'
import { seedReader, seedSeries, tempDir } from '../testing/store'
import type { AdminApi } from '../../shared/admin-api'

let fixture: FixtureSite
let dir: { dir: string; remove(): void }
let core: Core
let admin: AdminApi
const clock = new FakeClock()
const SITES_TEXT = (host: string) => `{
  // The owner's own notes stay.
  "sites": [
    { "key": "drifting", "name": "Drifting Scans", "hosts": ["${host}"], "family": "madara", "idPattern": "^/(?:moved|madara|gone)/manga/([^/]+)" }
  ]
}
`

beforeEach(async () => {
  fixture = await startFixtureSite({ now: () => clock.now() })
  dir = tempDir()
  writeFileSync(join(dir.dir, SITES_FILE), SITES_TEXT(fixture.host))
  core = await startCore({ dataDir: dir.dir, clock, log: silentLog, sites: [] })
  admin = createAdmin({ core, shell: 'headless', listening: () => 'http://127.0.0.1:0' })
})
afterEach(async () => {
  await core.stop()
  await fixture.close()
  dir.remove()
})

async function check(path: string) {
  const site = core.registry.get('drifting')!
  const seriesId = /manga\/([^/]+)/.exec(path)![1]!
  return checkSeries({ db: core.store.db, clock, log: silentLog }, site, core.fetchers.http, {
    site: 'drifting',
    series_id: seriesId,
    series_url: `${fixture.origin}${path}`,
  })
}

async function seed(path: string) {
  const seriesId = /manga\/([^/]+)/.exec(path)![1]!
  // The Lane's row, as a running Lane makes it.
  await ensureLane(core.store.db, 'drifting')
  await seedSeries(core.store.db, {
    site: 'drifting',
    id: seriesId,
    url: `${fixture.origin}${path}`,
    readers: [await seedReader(core.store.db)],
  })
}

const movedHost = () => `localhost:${new URL(fixture.origin).port}`

describe('a permanent redirect to another host', () => {
  it.each(['301', '308'])('HTTP %s: never followed, proposed to the owner, accepted: the next check reads the new host', async (status) => {
    const path = `/moved/manga/tide/?status=${status}`
    await seed(path)
    const first = await check(path)
    expect(first.outcome).toBe('error')
    expect(first.reason).toMatch(new RegExp(`redirect off the host pin to ${movedHost()} \\(HTTP ${status}, permanent\\)`))
    expect(fixture.hits.filter((h) => h.host === movedHost())).toEqual([])

    const lane = (await admin.lanes()).find((l) => l.site === 'drifting')!
    expect(lane.move).toEqual({
      toOrigin: `http://${movedHost()}`,
      toHost: movedHost(),
      fromUrl: `${fixture.origin}${path}`,
      seenAt: clock.now(),
    })
    expect(lane.hosts).toEqual([fixture.host])

    const accepted = await admin.acceptSiteMove({ site: 'drifting' })
    expect(accepted.move).toBeUndefined()
    expect(core.registry.get('drifting')!.hosts).toEqual([movedHost(), fixture.host])
    const file = readFileSync(join(dir.dir, SITES_FILE), 'utf8')
    expect(file).toContain("// The owner's own notes stay.")
    // What a restart reads: the same pin, the rest of the entry as it was.
    const reloaded = loadSites(dir.dir, []).sites.find((site) => site.key === 'drifting')!
    expect(reloaded).toMatchObject({ name: 'Drifting Scans', hosts: [movedHost(), fixture.host], family: 'madara' })

    const next = await check(path)
    expect(next.outcome).toBe('chapter')
    expect(fixture.hits.filter((h) => h.host === movedHost()).map((h) => h.path)).toEqual(['/madara/manga/tide/'])
    expect((await admin.lanes()).find((l) => l.site === 'drifting')!.move).toBeUndefined()
  })

  it('a dismissed move is not proposed again; a temporary redirect is no move', async () => {
    await seed('/moved/manga/reef/')
    await check('/moved/manga/reef/')
    await admin.dismissSiteMove({ site: 'drifting' })
    await check('/moved/manga/reef/')
    expect((await admin.lanes()).find((l) => l.site === 'drifting')!.move).toBeUndefined()
    expect(core.registry.get('drifting')!.hosts).toEqual([fixture.host])
    await expect(admin.acceptSiteMove({ site: 'drifting' })).rejects.toThrow(/has no move to accept/)

    await seed('/redirect-off/manga/kelp/')
    const temporary = await check('/redirect-off/manga/kelp/')
    expect(temporary.reason).toBe(`redirect off the host pin to ${movedHost()}`)
    expect((await admin.lanes()).find((l) => l.site === 'drifting')!.move).toBeUndefined()
  })
})

describe('a Series whose page is gone (docs/adr/0113-a-series-whose-page-is-gone.md)', () => {
  it("is said on the owner's row and the Reader's card from the third 404 or 410 in a row; a page read again ends it", async () => {
    const db = core.store.db
    const readerId = await seedReader(db)
    await ensureLane(db, 'drifting')
    await seedSeries(db, { site: 'drifting', id: 'reef', url: `${fixture.origin}/gone/manga/reef/?status=410`, readers: [readerId] })
    const key = { site: 'drifting', seriesId: 'reef' }
    const firstAt = clock.now()
    for (let n = 1; n <= 3; n++) {
      const report = await check('/gone/manga/reef/?status=410')
      expect(report).toMatchObject({ outcome: 'error', reason: `HTTP 410 from ${fixture.host}`, gone: 410 })
      const row = (await admin.seriesDetail(key)).row
      expect(row.gone).toEqual(n < 3 ? undefined : { goneChecks: 3, goneSince: firstAt, goneStatus: 410 })
      if (n < 3) await clock.advance(3_600_000)
    }
    const sinceBefore = clock.now() - 1
    const [card] = await readerBookmarks(db, readerId, { since: sinceBefore })
    expect(card && presentBookmark(card).series.gone).toEqual({ checks: 3, since: firstAt, status: 410 })

    // The page answers again: the run ends, and a Reader syncing since sees it end.
    await clock.advance(3_600_000)
    expect((await check('/madara/manga/reef/')).outcome).toBe('chapter')
    expect((await admin.seriesDetail(key)).row.gone).toBeUndefined()
    const [again] = await readerBookmarks(db, readerId, { since: clock.now() })
    expect(again && presentBookmark(again).series.gone).toBeUndefined()
  })

  it('another failure between two 404s starts the count again', async () => {
    const db = core.store.db
    await seedSeries(db, { site: 'drifting', id: 'kelp', url: `${fixture.origin}/gone/manga/kelp/`, readers: [await seedReader(db)] })
    await check('/gone/manga/kelp/')
    await check('/gone/manga/kelp/')
    await check('/moved/manga/kelp/')
    await check('/gone/manga/kelp/')
    await check('/gone/manga/kelp/')
    expect((await admin.seriesDetail({ site: 'drifting', seriesId: 'kelp' })).row.gone).toBeUndefined()
    await check('/gone/manga/kelp/')
    expect((await admin.seriesDetail({ site: 'drifting', seriesId: 'kelp' })).row.gone).toMatchObject({ goneChecks: 3, goneStatus: 404 })
  })
})
