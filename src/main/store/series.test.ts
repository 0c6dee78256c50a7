import { describe, expect, it } from '../testing/fixtures'
import { seedReader, seedSeries, type TestStore } from '../testing/store'
import { readerBookmarks } from './bookmarks'
import { recordSighting, judgeSightings } from './sightings'
import {
  addSeries,
  forceSeriesPoll,
  finishSeries,
  latestChapterHistory,
  latestMove,
  markLatestChecked,
  recordCheckResult,
  repairFutureStamps,
  requireSeries,
  setSeriesUrl,
  unfinishSeries,
} from './series'
import { getSeriesListRow, overviewCounts } from './series-list'

let alice: number
const key = { site: 'a', seriesId: 'x' }

it.beforeEach(async ({ store }) => {
  alice = await seedReader(store.db, 'alice')
})

describe('Check now and pending', () => {
  it('pending is derived and clears when the check stamp passes the force stamp', async ({ store }) => {
    await seedSeries(store.db, { id: 'x', checkedAt: 100, readers: [alice] })
    await forceSeriesPoll(store.db, key, 200)
    expect((await getSeriesListRow(store.db, key))?.pending).toBe(true)
    await markLatestChecked(store.db, key, 300)
    expect((await getSeriesListRow(store.db, key))?.pending).toBe(false)
    expect((await requireSeries(store.db, key)).force_poll_at).toBe(200)
  })

  it('forcing twice re-stamps the request time', async ({ store }) => {
    await seedSeries(store.db, { id: 'x', readers: [alice] })
    await forceSeriesPoll(store.db, key, 200)
    await forceSeriesPoll(store.db, key, 500)
    expect((await requireSeries(store.db, key)).force_poll_at).toBe(500)
  })

  it('refuses to force an unknown Series', async ({ store }) => {
    await expect(forceSeriesPoll(store.db, { site: 'a', seriesId: 'nope' }, 1)).rejects.toThrow(/no Series a\/nope/)
  })

  it('a force never touches the check stamp, so unchecked and stale counts stay true', async ({ store }) => {
    await seedSeries(store.db, { id: 'x', readers: [alice] })
    await forceSeriesPoll(store.db, key, 200)
    const counts = await overviewCounts(store.db, 0)
    expect(counts).toMatchObject({ unchecked: 1, pending: 1 })
  })
})

describe('Finished and URL', () => {
  it('finish and unfinish write finished_at', async ({ store }) => {
    await seedSeries(store.db, { id: 'x' })
    await finishSeries(store.db, key, 77)
    expect((await requireSeries(store.db, key)).finished_at).toBe(77)
    await unfinishSeries(store.db, key, 78)
    expect((await requireSeries(store.db, key)).finished_at).toBe(0)
  })

  it('setSeriesUrl stores the URL', async ({ store }) => {
    await seedSeries(store.db, { id: 'x', url: '' })
    await setSeriesUrl(store.db, key, 'https://a.example/manga/x', 79)
    expect((await requireSeries(store.db, key)).series_url).toBe('https://a.example/manga/x')
  })

  it('addSeries keeps an existing Series as it is', async ({ store }) => {
    await addSeries(store.db, { ...key, title: 'First', seriesUrl: 'https://a.example/1', now: 5 })
    const again = await addSeries(store.db, { ...key, title: 'Second', now: 6 })
    expect(again).toMatchObject({ title: 'First', series_url: 'https://a.example/1', created_at: 5 })
  })
})

describe('Latest Chapter moves', () => {
  const found = (chapter: number) => ({ chapter, label: `Chapter ${chapter}`, url: `https://a.example/c/${chapter}` })

  it.each([
    ['nothing known yet', { latest_chapter: null, latest_source: '' as const, checked_chapter: null }, 5, 'first'],
    ['higher than a checked one', { latest_chapter: 5, latest_source: 'check' as const, checked_chapter: 5 }, 6, 'up'],
    ['equal to a checked one', { latest_chapter: 5, latest_source: 'check' as const, checked_chapter: 5 }, 5, 'none'],
    ['lower than a checked one', { latest_chapter: 5, latest_source: 'check' as const, checked_chapter: 5 }, 4, 'none'],
    [
      'equal to a sighted one, never checked',
      { latest_chapter: 5, latest_source: 'sighting' as const, checked_chapter: null },
      5,
      'confirmed',
    ],
    [
      'lower than a sighted one, never checked',
      { latest_chapter: 5, latest_source: 'sighting' as const, checked_chapter: null },
      4,
      'corrected-down',
    ],
    [
      'equal to a sighted one, raised from a checked 5',
      { latest_chapter: 6, latest_source: 'sighting' as const, checked_chapter: 5 },
      6,
      'up',
    ],
    [
      'above the checked one, under a higher Sighting',
      { latest_chapter: 9, latest_source: 'sighting' as const, checked_chapter: 5 },
      6,
      'up',
    ],
    [
      'equal to the checked one, under a Sighting',
      { latest_chapter: 9, latest_source: 'sighting' as const, checked_chapter: 5 },
      5,
      'corrected-down',
    ],
  ])('%s', (_name, current, chapter, move) => {
    expect(latestMove(current, chapter)).toBe(move)
  })

  it('a higher chapter is a New Chapter with latest_changed_at = now and a history row', async ({ store }) => {
    await seedSeries(store.db, { id: 'x', latest: 10 })
    const report = await recordCheckResult(store.db, { ...key, found: found(11), title: 'X!', now: 900 })
    expect(report).toMatchObject({ move: 'up', newChapter: true, previous: 10 })
    expect(report.series).toMatchObject({
      latest_chapter: 11,
      latest_chapter_label: 'Chapter 11',
      latest_source: 'check',
      latest_changed_at: 900,
      title: 'X!',
    })
    expect((await latestChapterHistory(store.db, key))[0]).toMatchObject({ chapter: 11, source: 'check', at: 900 })
  })

  it('a second check that finds the same chapter is recorded as a success and changes nothing a Reader syncs', async ({ store }) => {
    await seedSeries(store.db, { id: 'x', readers: [alice] })
    await recordCheckResult(store.db, { ...key, found: found(7), title: 'X', now: 100 })
    const before = await requireSeries(store.db, key)
    await recordSighting(store.db, { ...key, readerId: alice, chapter: 7, sightedAt: 150, now: 150 })
    const sighted = await requireSeries(store.db, key)
    // The check's own transaction: the same chapter again, then the Sighting judgement.
    const report = await store.db.transaction().execute(async (trx) => {
      const moved = await recordCheckResult(trx, { ...key, found: found(7), title: 'X', now: 200 })
      await judgeSightings(trx, key, 7, 200)
      return moved
    })
    expect(report).toMatchObject({ move: 'none', newChapter: false, previous: 7 })
    expect(await requireSeries(store.db, key)).toEqual(sighted)
    expect(sighted).toEqual({ ...before, latest_sighted_at: 150 })
    expect(await readerBookmarks(store.db, alice, { since: 151 })).toEqual([])
    expect(await latestChapterHistory(store.db, key)).toHaveLength(1)
    const [sighting] = await store.db.selectFrom('sightings').selectAll().execute()
    expect(sighting).toMatchObject({ verdict: 'confirmed', judged_at: 200 })
  })

  it('the first chapter ever found is not a New Chapter, but a since-sync still sees it', async ({ store }) => {
    await seedSeries(store.db, { id: 'x', readers: [alice] })
    const report = await recordCheckResult(store.db, { ...key, found: found(3), now: 900 })
    expect(report).toMatchObject({ move: 'first', newChapter: false, series: { latest_chapter: 3, latest_changed_at: 0 } })
    const bookmark = await store.db.selectFrom('bookmarks').select('updated_at').executeTakeFirstOrThrow()
    expect(bookmark.updated_at).toBe(900)
  })

  it('a check corrects down a suspicious Sighting raise and judges it', async ({ store }) => {
    await seedSeries(store.db, { id: 'x', latest: 10, readers: [alice] })
    const sighting = await recordSighting(store.db, { ...key, readerId: alice, chapter: 20, sightedAt: 100, now: 100 })
    expect(sighting.raised).toBe(true)
    expect(await requireSeries(store.db, key)).toMatchObject({ latest_chapter: 20, latest_source: 'sighting', latest_sighted_at: 100 })
    // The check finds what the last check found: the raise is corrected down (above it would be a New Chapter).
    const report = await recordCheckResult(store.db, { ...key, found: found(10), now: 200 })
    expect(report.move).toBe('corrected-down')
    expect(report.series).toMatchObject({ latest_chapter: 10, latest_source: 'check', checked_chapter: 10 })
    expect(await judgeSightings(store.db, key, 10, 200)).toEqual({ confirmed: 0, suspicious: 1 })
  })

  it('a Sighting the check reaches is confirmed; a lower Sighting raises nothing', async ({ store }) => {
    const bo = await seedReader(store.db, 'bo')
    await seedSeries(store.db, { id: 'x', latest: 10, readers: [alice, bo] })
    expect((await recordSighting(store.db, { ...key, readerId: alice, chapter: 9, sightedAt: 50, now: 50 })).raised).toBe(false)
    await recordSighting(store.db, { ...key, readerId: bo, chapter: 12, sightedAt: 60, now: 60 })
    expect(await judgeSightings(store.db, key, 12, 70)).toEqual({ confirmed: 2, suspicious: 0 })
    // Judged Sightings are not judged again.
    expect(await judgeSightings(store.db, key, 1, 80)).toEqual({ confirmed: 0, suspicious: 0 })
  })

  it('latest_sighted_at never moves backwards', async ({ store }) => {
    await seedSeries(store.db, { id: 'x', latest: 10, readers: [alice] })
    await recordSighting(store.db, { ...key, readerId: alice, chapter: 9, sightedAt: 500, now: 500 })
    await recordSighting(store.db, { ...key, readerId: alice, chapter: 9, sightedAt: 300, now: 600 })
    expect((await requireSeries(store.db, key)).latest_sighted_at).toBe(500)
  })
})

describe('Sightings judged by a check', () => {
  it('only those made before the check began', async ({ store }) => {
    const { judgeSightings, lastSightingId, recordSighting } = await import('./sightings')
    const { seedReader } = await import('../testing/store')
    const reader = await seedReader(store.db, 'judge')
    const other = await seedReader(store.db, 'other')
    await seedSeries(store.db, { id: 'j', latest: 5, readers: [reader, other] })
    const key = { site: 'a', seriesId: 'j' }
    await recordSighting(store.db, { ...key, readerId: reader, chapter: 6, sightedAt: 1, now: 1 })
    const upTo = await lastSightingId(store.db, key)
    // This one arrives while the page is being fetched.
    await recordSighting(store.db, { ...key, readerId: other, chapter: 9, sightedAt: 2, now: 2 })
    expect(await judgeSightings(store.db, key, 6, 3, upTo)).toEqual({ confirmed: 1, suspicious: 0 })
    const verdicts = await store.db
      .selectFrom('sightings')
      .select(['chapter', 'verdict'])
      .where('series_id', '=', 'j')
      .orderBy('id')
      .execute()
    expect(verdicts).toEqual([
      { chapter: 6, verdict: 'confirmed' },
      { chapter: 9, verdict: '' },
    ])
  })
})

describe('retention (docs/adr/0053-retention-and-statistics.md)', () => {
  it('a Series keeps its newest 100 Latest Chapter moves, whoever writes them', async ({ store }) => {
    await seedSeries(store.db, { id: 'x', readers: [alice] })
    for (let chapter = 1; chapter <= 130; chapter++) {
      await recordCheckResult(store.db, { ...key, found: { chapter, label: `Chapter ${chapter}`, url: '' }, now: chapter })
    }
    const kept = store.sqlite
      .prepare("SELECT COUNT(*) AS n, MIN(chapter) AS oldest, MAX(chapter) AS newest FROM latest_chapter_history WHERE series_id = 'x'")
      .get()
    expect(kept).toEqual({ n: 100, oldest: 31, newest: 130 })
    expect((await latestChapterHistory(store.db, key)).map((h) => h.chapter).slice(0, 2)).toEqual([130, 129])
  })

  it('judged Sightings go after the retention; outstanding ones stay until a check judges them', async ({ store }) => {
    const { pruneJudgedSightings } = await import('./maintenance')
    await seedSeries(store.db, { id: 'x', readers: [alice], latest: 1 })
    await recordSighting(store.db, { ...key, readerId: alice, chapter: 2, sightedAt: 10, now: 10 })
    await judgeSightings(store.db, key, 2, 20)
    await recordSighting(store.db, { ...key, readerId: alice, chapter: 9, sightedAt: 1_000, now: 1_000 })
    await judgeSightings(store.db, key, 9, 1_000)
    // Long ago, and never judged (its Series was not checked since).
    await recordSighting(store.db, { ...key, readerId: alice, chapter: 3, sightedAt: 30, now: 30 })
    expect(await pruneJudgedSightings(store.db, 500)).toBe(1)
    expect(store.sqlite.prepare('SELECT chapter, verdict FROM sightings ORDER BY id').all()).toEqual([
      { chapter: 9, verdict: 'confirmed' },
      { chapter: 3, verdict: '' },
    ])
  })

  it('an orphan goes after the retention, a held Series never', async ({ store }) => {
    const { pruneOrphanSeries } = await import('./series')
    await seedSeries(store.db, { id: 'orphan' })
    await seedSeries(store.db, { id: 'held', readers: [alice] })
    expect(await pruneOrphanSeries(store.db, 0)).toBe(0)
    expect(await pruneOrphanSeries(store.db, 5_000)).toBe(1)
    expect(store.sqlite.prepare('SELECT series_id FROM series').all()).toEqual([{ series_id: 'held' }])
  })
})

describe('stamps ahead of a wall clock set back (docs/adr/0011)', () => {
  const stamps = async (store: TestStore) =>
    Object.fromEntries(
      (await store.db.selectFrom('series').select(['series_id', 'latest_checked_at', 'force_poll_at']).orderBy('series_id').execute()).map(
        (r) => [r.series_id, { checked: r.latest_checked_at, forced: r.force_poll_at }],
      ),
    )

  it('move back by the step, the newest to now, keeping their spacing; stamps already behind now stay', async ({ store }) => {
    const now = 10_000_000
    await seedSeries(store.db, { id: 'a', checkedAt: now + 3_000_000, readers: [alice] })
    await seedSeries(store.db, { id: 'b', checkedAt: now + 2_000_000, readers: [alice] })
    await seedSeries(store.db, { id: 'c', checkedAt: now - 500_000, readers: [alice] })
    expect(await repairFutureStamps(store.db, 'a', now)).toBe(2)
    const after = await stamps(store)
    expect([after.a!.checked, after.b!.checked, after.c!.checked]).toEqual([now, now - 1_000_000, now - 500_000])
  })

  it('a pending Check now stays pending, a served one stays served', async ({ store }) => {
    const now = 10_000_000
    await seedSeries(store.db, { id: 'pending', checkedAt: now + 1_000, forcedAt: now + 2_000, readers: [alice] })
    await seedSeries(store.db, { id: 'served', checkedAt: now + 3_000, forcedAt: now - 10, readers: [alice] })
    await repairFutureStamps(store.db, 'a', now)
    const after = await stamps(store)
    expect(after.pending!.forced).toBeGreaterThan(after.pending!.checked)
    expect(after.served!.forced).toBeLessThanOrEqual(after.served!.checked)
    expect(Math.max(after.pending!.checked, after.served!.checked)).toBeLessThanOrEqual(now)
  })

  it('a press while stamps are ahead is pending at once, and the next check stamp ends it', async ({ store }) => {
    const now = 10_000_000
    await seedSeries(store.db, { id: 'x', checkedAt: now + 3_600_000, readers: [alice] })
    await forceSeriesPoll(store.db, { site: 'a', seriesId: 'x' }, now)
    const pressed = (await stamps(store)).x!
    expect(pressed.forced).toBeGreaterThan(pressed.checked)
    await markLatestChecked(store.db, { site: 'a', seriesId: 'x' }, now + 1)
    const served = (await stamps(store)).x!
    expect(served.forced).toBeLessThanOrEqual(served.checked)
  })

  it('a press while the stamp is ahead keeps the press time, so the marker ages from it (issue 24)', async ({ store }) => {
    const now = 10_000_000
    await seedSeries(store.db, { id: 'x', checkedAt: now + 3_600_000, readers: [alice] })
    await forceSeriesPoll(store.db, { site: 'a', seriesId: 'x' }, now)
    const pressed = (await stamps(store)).x!
    // 55 minutes later the marker reads 55 minutes, not "0 s" until the clock catches up with the old stamp.
    expect(now + 55 * 60_000 - pressed.forced).toBe(55 * 60_000)
    expect(pressed.checked).toBe(now - 1)
    expect((await getSeriesListRow(store.db, { site: 'a', seriesId: 'x' }))?.pending).toBe(true)
  })
})
