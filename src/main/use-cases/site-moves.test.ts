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
    { "key": "drifting", "name": "Drifting Scans", "hosts": ["${host}"], "family": "madara", "idPattern": "^/(?:moved|madara)/manga/([^/]+)" }
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
