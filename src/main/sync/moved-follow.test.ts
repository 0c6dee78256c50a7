/**
 * A Reader following a moved Series by its new URL (docs/adr/0233-a-moved-series-is-one-series.md), through the
 * sync endpoint on a loopback port and a real SQLite file: the bookmark is on the one Series the app has, and a
 * Sighting by that URL is on it too.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { fixtureSites } from '../demo/fixture-sites'
import { moveSeriesUrl } from '../use-cases/series-by-url'
import { startTestSyncServer, type TestSyncServer } from '../testing/sync-server'

let s: TestSyncServer
beforeEach(async () => {
  s = await startTestSyncServer()
})
afterEach(() => s.close())

const madara = (path: string) => `${s.fixture.origin}${path}`
const series = async () => (await s.store.db.selectFrom('series').select('series_id').execute()).map((r) => r.series_id)

describe('POST /bookmarks with the URL a Series moved to', () => {
  it('is a bookmark on the Series the app has, never a second Series', async () => {
    expect((await s.call(s.alice.token, 'POST', '/api/v1/bookmarks', { url: madara('/madara/manga/solo-lantern/') })).status).toBe(202)
    await s.acquired(s.alice.token)
    // The Site moves it; the owner accepts the move (as acceptFoundAgain does).
    const moved = madara(s.fixture.vanish('/madara/manga/solo-lantern/'))
    const site = fixtureSites(s.fixture.host).find((x) => x.key === 'fixture-madara')!
    await moveSeriesUrl(
      s.store.db,
      site,
      { site: 'fixture-madara', seriesId: 'solo-lantern' },
      { url: moved, found: true, now: s.clock.now() },
    )

    const r = await s.call(s.bob.token, 'POST', '/api/v1/bookmarks', { url: moved })
    expect(r.status).toBe(201) // created, and no acquisition: a Series the app knows
    expect(r.json).toMatchObject({ bookmark: { site: 'fixture-madara', seriesId: 'solo-lantern', series: { url: moved } } })
    expect(r.json.acquisition).toBeUndefined()
    expect((await s.call(s.alice.token, 'POST', '/api/v1/bookmarks', { url: moved })).status).toBe(200)
    expect(await series()).toEqual(['solo-lantern'])

    const sighted = await s.call(s.bob.token, 'POST', '/api/v1/sightings', { url: moved, chapter: 12 })
    expect(sighted.status).toBe(202)
    const rows = await s.store.db.selectFrom('sightings').select(['site', 'series_id', 'chapter']).execute()
    expect(rows).toEqual([{ site: 'fixture-madara', series_id: 'solo-lantern', chapter: 12 }])
  })
})
