/**
 * A check judges a Sighting from what a check last found (docs/adr/0119-sightings-judged-from-the-last-check.md): a
 * chapter above the last checked one is a New Chapter — Updates, a digest row, ember — even when a Sighting claimed
 * more (that Sighting is judged suspicious) or exactly as much (confirmed).
 */
import { describe, expect, it } from 'vitest'
import { requireSeries } from '../store/series'
import { recordSighting, seriesSightings } from '../store/sightings'
import { newChapterUpdates } from '../store/updates'
import { FakeClock } from '../testing/clock'
import { chapterPage, FakeFetcher, testSite } from '../testing/fakes'
import { passOnClock } from '../testing/pass'
import { openTestStore, seedReader, seedSeries } from '../testing/store'

const HOUR = 3_600_000
const site = testSite('a', { pace: { minGapMs: 1_000, maxGapMs: 1_000 } })
const key = { site: 'a', seriesId: 'one' }
const seriesRow = { site: 'a', series_id: 'one' }

async function judged(served: number, sighted: number) {
  const clock = new FakeClock(Date.UTC(2026, 0, 5, 12, 0))
  const store = openTestStore(clock.now())
  try {
    const aiko = await seedReader(store.db, 'aiko')
    const bo = await seedReader(store.db, 'bo')
    await seedSeries(store.db, { id: 'one', latest: 41, checkedAt: clock.now() - HOUR, readers: [aiko, bo] })
    // The check that found 41.
    await store.db
      .insertInto('latest_chapter_history')
      .values({ ...seriesRow, chapter: 41, source: 'check', at: clock.now() - HOUR })
      .execute()
    await recordSighting(store.db, { ...key, readerId: aiko, chapter: sighted, sightedAt: clock.now(), now: clock.now() })
    await clock.advance(2 * HOUR)
    const fetcher = new FakeFetcher('http', clock, (r) => {
      const page = chapterPage(served)
      return page.kind === 'page' ? { ...page, page: { ...page.page, url: r.url } } : page
    })
    const result = await passOnClock({ db: store.db, site, clock, fetchers: { http: fetcher } })
    return {
      result,
      series: await requireSeries(store.db, key),
      waiting: await store.db.selectFrom('notify_chapters').select(['chapter']).execute(),
      updates: (await newChapterUpdates(store.db, { limit: 10 })).map((u) => [u.chapter, u.previous]),
      verdicts: (await seriesSightings(store.db, key)).map((g) => g.verdict),
    }
  } finally {
    await store.dispose()
  }
}

describe('a check above the last checked chapter, under a Sighting', () => {
  it('is a New Chapter when the Sighting claimed more, and the Sighting is judged suspicious', async () => {
    const r = await judged(43, 45)
    expect(r.result.newChapters.map((c) => c.chapter)).toEqual([43])
    expect(r.series).toMatchObject({
      latest_chapter: 43,
      latest_source: 'check',
      checked_chapter: 43,
      latest_changed_at: r.series.latest_checked_at,
    })
    expect(r.waiting).toEqual([{ chapter: 43 }])
    expect(r.updates).toEqual([[43, 41]])
    expect(r.verdicts).toEqual(['suspicious'])
  })

  it('is a New Chapter when the Sighting claimed exactly it, and the Sighting is confirmed', async () => {
    const r = await judged(45, 45)
    expect(r.result.newChapters.map((c) => c.chapter)).toEqual([45])
    expect(r.waiting).toEqual([{ chapter: 45 }])
    expect(r.updates).toEqual([[45, 41]])
    expect(r.verdicts).toEqual(['confirmed'])
  })

  it('at the last checked chapter corrects the raise down: no New Chapter', async () => {
    const r = await judged(41, 45)
    expect(r.result.newChapters).toEqual([])
    expect(r.series).toMatchObject({ latest_chapter: 41, latest_source: 'check' })
    expect(r.waiting).toEqual([])
    expect(r.updates).toEqual([])
    expect(r.verdicts).toEqual(['suspicious'])
  })
})
