/**
 * The owner's chapters (issue #25): Updates with each chapter's link and a filter by Reader, and the Series detail
 * led by the stored list — through the admin API of the real app, a real SQLite file, checks of the fixture site.
 */
import { fixtureSites } from '../demo/fixture-sites'
import { createHttpFetcher } from '../fetch/http-fetcher'
import { checkSeries } from '../lanes/check'
import { silentLog } from '../log'
import { createRegistry } from '../sites/registry'
import { describe, expect, fileAppTest } from '../testing/app-fixtures'
import { seedReader, seedSeries } from '../testing/store'

const PATH = '/madara/manga/owner-view/'
const key = { site: 'fixture-madara', seriesId: 'owner-view' }

/** `check()`: a minute on, the Series checked on the fixture site, where it finds a chapter. */
const it = fileAppTest.extend('check', ({ clock, site: fixture, db }) => async (): Promise<void> => {
  await clock.advance(60_000)
  const site = createRegistry(fixtureSites(fixture.host)).get(key.site)!
  const report = await checkSeries({ db, clock, log: silentLog }, site, createHttpFetcher({ timeoutMs: 2_000 }), {
    site: key.site,
    series_id: key.seriesId,
    series_url: `${fixture.origin}${PATH}`,
  })
  expect(report.outcome).toBe('chapter')
})

describe("the owner's chapters", () => {
  it('Updates: each New Chapter links to it on its Site; filtered by a Reader, only the Series they hold', async ({
    app,
    db,
    site: fixture,
    check,
  }) => {
    const aiko = await seedReader(db, 'Aiko')
    const ben = await seedReader(db, 'Ben')
    await seedSeries(db, { site: key.site, id: key.seriesId, title: 'Owner View', url: `${fixture.origin}${PATH}`, readers: [aiko] })
    await check()
    const released = fixture.publish(PATH)
    await check()
    const all = await app.api.updates({})
    expect(all.items[0]).toMatchObject({ title: 'Owner View', chapter: released, url: `${fixture.origin}${PATH}chapter-${released}/` })
    expect((await app.api.updates({ readerId: aiko })).items.map((u) => u.chapter)).toContain(released)
    expect((await app.api.updates({ readerId: ben })).items).toEqual([])
  })

  it('the Series detail carries the stored list, newest first, with first-seen times and arrivals', async ({ app, site: fixture }) => {
    const detail = await app.api.seriesDetail(key)
    const latest = fixture.series(PATH).latest
    expect(detail.chapters).toHaveLength(12)
    expect(detail.chapters[0]).toMatchObject({
      number: latest,
      arrived: true,
      vanishedAt: 0,
      url: `${fixture.origin}${PATH}chapter-${latest}/`,
    })
    expect(detail.chapters[1]).toMatchObject({ number: latest - 1, arrived: false })
    expect(detail.chapters[0]!.firstSeenAt).toBeGreaterThan(detail.chapters[1]!.firstSeenAt)
  })
})
